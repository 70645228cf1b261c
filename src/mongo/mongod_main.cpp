// mongod: option parsing (command line and YAML config), start-up (lock file,
// storage engine, catalog, listener) and clean shutdown on SIGINT/SIGTERM or the
// shutdown command (final checkpoint).
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml-cpp/yaml.h>
#include <boost/program_options.hpp>

#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <thread>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/authorization_manager.h"
#include "mongo/db/auth/security_key.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/cursor_manager.h"
#include "mongo/db/logical_session_cache.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/op_observer_impl.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/replication_coordinator.h"
#include "mongo/db/service_context.h"
#include "mongo/db/service_entry_point_mongod.h"
#include "mongo/db/startup_collections.h"
#include "mongo/db/storage/disk_space_monitor.h"
#include "mongo/db/storage/durable_catalog.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_kv_engine.h"
#include "mongo/db/timeseries/rollups/rollup_maintenance.h"
#include "mongo/db/timeseries/timeseries_op_observer.h"
#include "mongo/db/ttl/ttl_monitor.h"
#include "mongo/idl/server_parameter.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/logv2/log.h"
#include "mongo/transport/transport_layer.h"

namespace po = boost::program_options;

namespace mongo {
namespace {

constexpr int kExitBadOptions = 2;
constexpr int kExitDBPathInUse = 100;  // upstream's EXIT_UNCAUGHT-style code for lock failures

std::mutex gShutdownMutex;
std::condition_variable gShutdownCv;
bool gShutdownRequested = false;

void requestShutdown() {
    std::lock_guard<std::mutex> lk(gShutdownMutex);
    gShutdownRequested = true;
    gShutdownCv.notify_all();
}

struct ParsedOptions {
    ServerOptions server;
    std::vector<std::pair<std::string, std::string>> setParameters;
    int syncdelay = 60;
    int verbosity = 0;
    long long oplogSizeMB = 0;  // 0: repl::defaultOplogSizeBytes()
    bool auth = false;          // --auth / security.authorization: enabled
    std::string keyFile;        // --keyFile / security.keyFile (implies auth)
    TlsOptions tls;             // --tls* / net.tls.*
    std::string tlsModeName;    // as given, checked once the config file and flags are merged
    std::string tlsDisabledProtocols;
    BSONObj parsed;
};

void appendYamlScalar(BSONObjBuilder& b, const std::string& key, const YAML::Node& n) {
    const std::string v = n.as<std::string>();
    if (v == "true" || v == "false") {
        b.append(key, v == "true");
        return;
    }
    char* end = nullptr;
    long long iv = std::strtoll(v.c_str(), &end, 10);
    if (!v.empty() && *end == 0) {
        b.appendNumber(key, iv);
        return;
    }
    double dv = std::strtod(v.c_str(), &end);
    if (!v.empty() && *end == 0) {
        b.append(key, dv);
        return;
    }
    b.append(key, v);
}

BSONObj yamlToBson(const YAML::Node& node) {
    BSONObjBuilder b;
    for (const auto& kv : node) {
        std::string key = kv.first.as<std::string>();
        if (kv.second.IsMap())
            b.append(key, yamlToBson(kv.second));
        else if (kv.second.IsScalar())
            appendYamlScalar(b, key, kv.second);
        else if (kv.second.IsSequence()) {
            BSONArrayBuilder arr(b.subarrayStart(key));
            for (const auto& item : kv.second)
                arr.append(item.as<std::string>());
        }
    }
    return b.obj();
}

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= s.size()) {
        size_t comma = s.find(',', start);
        std::string part =
            s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        while (!part.empty() && part.front() == ' ')
            part.erase(part.begin());
        while (!part.empty() && part.back() == ' ')
            part.pop_back();
        if (!part.empty())
            out.push_back(part);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return out;
}

/**
 * `base` with `over` laid on top, object by object (getCmdLineOpts' "parsed": the config
 * file's sections merged with the command line's, which wins on a shared key).
 */
BSONObj mergeOptions(const BSONObj& base, const BSONObj& over) {
    BSONObjBuilder b;
    for (const BSONElement& e : base) {
        BSONElement o = over.getField(e.fieldNameStringData());
        if (o.eoo())
            b.append(e);
        else if (o.type() == BSONType::kObject && e.type() == BSONType::kObject)
            b.append(e.fieldNameStringData(), mergeOptions(e.Obj(), o.Obj()));
        else
            b.append(o);
    }
    for (const BSONElement& o : over)
        if (!base.hasField(o.fieldNameStringData()))
            b.append(o);
    return b.obj();
}

/** Applies the YAML config file first; command-line options override it. */
void applyConfigFile(const std::string& path, ParsedOptions* opts, BSONObjBuilder* parsed) {
    YAML::Node root = YAML::LoadFile(path);
    if (auto storage = root["storage"]) {
        if (storage["dbPath"])
            opts->server.dbpath = storage["dbPath"].as<std::string>();
        if (auto wt = storage["wiredTiger"]) {
            if (wt["engineConfig"] && wt["engineConfig"]["cacheSizeGB"])
                opts->server.cacheSizeGB = wt["engineConfig"]["cacheSizeGB"].as<double>();
            if (wt["engineConfig"] && wt["engineConfig"]["journalCompressor"])
                opts->server.journalCompressor =
                    wt["engineConfig"]["journalCompressor"].as<std::string>();
            if (wt["collectionConfig"] && wt["collectionConfig"]["blockCompressor"])
                opts->server.collectionBlockCompressor =
                    wt["collectionConfig"]["blockCompressor"].as<std::string>();
        }
        if (storage["syncPeriodSecs"])
            opts->syncdelay = storage["syncPeriodSecs"].as<int>();
    }
    if (auto net = root["net"]) {
        if (net["port"])
            opts->server.port = net["port"].as<int>();
        if (net["bindIp"])
            opts->server.bindIps = splitList(net["bindIp"].as<std::string>());
        if (net["maxIncomingConnections"])
            opts->server.maxConns = net["maxIncomingConnections"].as<int>();
        if (auto tls = net["tls"]) {
            if (tls["mode"])
                opts->tlsModeName = tls["mode"].as<std::string>();
            if (tls["certificateKeyFile"])
                opts->tls.certificateKeyFile = tls["certificateKeyFile"].as<std::string>();
            if (tls["certificateKeyFilePassword"])
                opts->tls.certificateKeyFilePassword =
                    tls["certificateKeyFilePassword"].as<std::string>();
            if (tls["CAFile"])
                opts->tls.caFile = tls["CAFile"].as<std::string>();
            if (tls["allowInvalidCertificates"])
                opts->tls.allowInvalidCertificates = tls["allowInvalidCertificates"].as<bool>();
            if (tls["allowConnectionsWithoutCertificates"])
                opts->tls.allowConnectionsWithoutCertificates =
                    tls["allowConnectionsWithoutCertificates"].as<bool>();
            if (tls["disabledProtocols"]) {
                opts->tls.disabledProtocolsGiven = true;
                opts->tlsDisabledProtocols = tls["disabledProtocols"].as<std::string>();
            }
        }
    }
    if (auto log = root["systemLog"]) {
        if (log["path"])
            opts->server.logpath = log["path"].as<std::string>();
        if (log["quiet"])
            opts->server.quiet = log["quiet"].as<bool>();
        if (log["verbosity"])
            opts->verbosity = log["verbosity"].as<int>();
    }
    if (auto repl = root["replication"]) {
        if (repl["replSetName"])
            opts->server.replSet = repl["replSetName"].as<std::string>();
        if (repl["oplogSizeMB"])
            opts->oplogSizeMB = repl["oplogSizeMB"].as<long long>();
    }
    if (auto security = root["security"]) {
        if (security["authorization"]) {
            const std::string v = security["authorization"].as<std::string>();
            if (v != "enabled" && v != "disabled")
                throw std::runtime_error(
                    "security.authorization must be 'enabled' or 'disabled', "
                    "not '" +
                    v + "'");
            opts->auth = v == "enabled";
        }
        if (security["keyFile"])
            opts->keyFile = security["keyFile"].as<std::string>();
    }
    if (auto sp = root["setParameter"]) {
        for (const auto& kv : sp)
            opts->setParameters.emplace_back(kv.first.as<std::string>(),
                                             kv.second.as<std::string>());
    }
    parsed->append("config", path);
    parsed->appendElements(yamlToBson(root));
}

/**
 * Merges the --tls* flags over the config file's net.tls keys and runs upstream's start-up
 * checks. Returns the exit code (BadValue: 2), or -1 to continue.
 */
int applyTlsOptions(const po::variables_map& vm, const char* argv0, ParsedOptions* opts) {
    if (vm.count("tlsMode"))
        opts->tlsModeName = vm["tlsMode"].as<std::string>();
    if (vm.count("tlsCertificateKeyFile"))
        opts->tls.certificateKeyFile = vm["tlsCertificateKeyFile"].as<std::string>();
    if (vm.count("tlsCertificateKeyFilePassword"))
        opts->tls.certificateKeyFilePassword =
            vm["tlsCertificateKeyFilePassword"].as<std::string>();
    if (vm.count("tlsCAFile"))
        opts->tls.caFile = vm["tlsCAFile"].as<std::string>();
    if (vm.count("tlsAllowInvalidCertificates"))
        opts->tls.allowInvalidCertificates = true;
    if (vm.count("tlsAllowConnectionsWithoutCertificates"))
        opts->tls.allowConnectionsWithoutCertificates = true;
    if (vm.count("tlsDisabledProtocols")) {
        opts->tls.disabledProtocolsGiven = true;
        opts->tlsDisabledProtocols = vm["tlsDisabledProtocols"].as<std::string>();
    }
    auto refuse = [&](const Status& s) {
        std::cerr << s.toString() << "\n"
                  << "try '" << argv0 << " --help' for more information\n";
        return kExitBadOptions;
    };
    if (!opts->tlsModeName.empty()) {
        auto mode = parseTlsMode(opts->tlsModeName);
        if (!mode.isOK())
            return refuse(mode.getStatus());
        opts->tls.mode = mode.getValue();
    }
    if (opts->tls.disabledProtocolsGiven) {
        auto bits = parseTlsDisabledProtocols(opts->tlsDisabledProtocols);
        if (!bits.isOK())
            return refuse(bits.getStatus());
        opts->tls.disabledProtocols = bits.getValue();
    }
    if (Status s = validateTlsOptions(opts->tls); !s.isOK())
        return refuse(s);
    return -1;
}

/** Returns the exit code to use, or -1 to continue. */
int parseOptions(int argc, char** argv, ParsedOptions* opts) {
    po::options_description desc("Options");
    // clang-format off
    desc.add_options()
        ("help,h", "show this usage information")
        ("version", "show version information")
        ("config,f", po::value<std::string>(), "configuration file (YAML)")
        ("dbpath", po::value<std::string>(), "directory for datafiles")
        ("port", po::value<int>(), "specify port number (default 27017)")
        ("bind_ip", po::value<std::string>(), "comma separated list of addresses (default 127.0.0.1)")
        ("bind_ip_all", "bind to all IPv4 addresses")
        ("maxConns", po::value<int>(), "max number of simultaneous connections (default 1000000)")
        ("logpath", po::value<std::string>(), "log file to send writes to instead of stdout")
        ("logappend", "append to logpath instead of over-writing")
        ("quiet", "quieter output")
        ("verbose,v", "be more verbose")
        ("setParameter", po::value<std::vector<std::string>>()->composing(), "set a server parameter: name=value")
        ("replSet", po::value<std::string>(), "replica set name")
        ("oplogSize", po::value<int>(), "oplog size in MB")
        ("syncdelay", po::value<int>(), "seconds between checkpoints")
        ("wiredTigerCacheSizeGB", po::value<double>(), "WiredTiger cache size in GB")
        ("wiredTigerCollectionBlockCompressor", po::value<std::string>(), "none|snappy|zlib|zstd")
        ("wiredTigerJournalCompressor", po::value<std::string>(), "none|snappy|zlib|zstd")
        ("nounixsocket", "accepted for compatibility")
        ("ipv6", "accepted for compatibility")
        ("auth", "run with security")
        ("noauth", "run without security")
        ("keyFile", po::value<std::string>(), "private key for cluster authentication")
        ("tlsMode", po::value<std::string>(), "disabled|allowTLS|preferTLS|requireTLS")
        ("tlsCertificateKeyFile", po::value<std::string>(), "PEM: server certificate and key")
        ("tlsCertificateKeyFilePassword", po::value<std::string>(), "its key's password")
        ("tlsCAFile", po::value<std::string>(), "CA for client certificates")
        ("tlsAllowInvalidCertificates", "accept client certificates that fail verification")
        ("tlsAllowConnectionsWithoutCertificates", "accept clients without a certificate")
        ("tlsDisabledProtocols", po::value<std::string>(), "TLS1_0,TLS1_1,TLS1_2,TLS1_3 or none");
    // clang-format on
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, desc), vm);
        po::notify(vm);
    } catch (const std::exception& ex) {
        std::cerr << "Error parsing command line: " << ex.what() << "\n"
                  << "try '" << argv[0] << " --help' for more information\n";
        return kExitBadOptions;
    }
    if (vm.count("help")) {
        std::cout << "Usage: mongod [options]\n\n" << desc << "\n";
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "db version v8.0.0\nBuild Info: {\n    \"version\": \"8.0.0\",\n"
                  << "    \"environment\": {\n        \"distarch\": \"x86_64\",\n"
                  << "        \"target_arch\": \"x86_64\"\n    }\n}\n";
        return 0;
    }

    BSONObjBuilder fileParsed, parsed;
    if (vm.count("config")) {
        try {
            applyConfigFile(vm["config"].as<std::string>(), opts, &fileParsed);
        } catch (const std::exception& ex) {
            std::cerr << "Error reading config file: " << ex.what() << "\n";
            return kExitBadOptions;
        }
    }
    BSONObjBuilder net, storage, systemLog, security;
    if (vm.count("auth") && vm.count("noauth")) {
        std::cerr << "Error parsing command line: --auth and --noauth are mutually exclusive\n";
        return kExitBadOptions;
    }
    if (vm.count("auth")) {
        opts->auth = true;
        security.append("authorization", "enabled");
    }
    if (vm.count("noauth")) {
        opts->auth = false;
        security.append("authorization", "disabled");
    }
    if (vm.count("keyFile")) {
        opts->keyFile = vm["keyFile"].as<std::string>();
        security.append("keyFile", opts->keyFile);
    }
    if (int rc = applyTlsOptions(vm, argv[0], opts); rc >= 0)
        return rc;
    if (opts->tls.mode != TlsMode::kDisabled || !opts->tls.certificateKeyFile.empty() ||
        !opts->tls.caFile.empty()) {
        BSONObjBuilder tls(net.subobjStart("tls"));
        tls.append("mode", tlsModeName(opts->tls.mode));
        if (!opts->tls.certificateKeyFile.empty())
            tls.append("certificateKeyFile", opts->tls.certificateKeyFile);
        if (!opts->tls.certificateKeyFilePassword.empty())
            tls.append("certificateKeyFilePassword", "<password>");
        if (!opts->tls.caFile.empty())
            tls.append("CAFile", opts->tls.caFile);
        if (opts->tls.allowInvalidCertificates)
            tls.append("allowInvalidCertificates", true);
        if (opts->tls.allowConnectionsWithoutCertificates)
            tls.append("allowConnectionsWithoutCertificates", true);
        if (opts->tls.disabledProtocolsGiven)
            tls.append("disabledProtocols", opts->tlsDisabledProtocols);
    }
    if (vm.count("dbpath")) {
        opts->server.dbpath = vm["dbpath"].as<std::string>();
        storage.append("dbPath", opts->server.dbpath);
    }
    if (vm.count("port")) {
        opts->server.port = vm["port"].as<int>();
        net.append("port", opts->server.port);
    }
    if (vm.count("bind_ip")) {
        opts->server.bindIps = splitList(vm["bind_ip"].as<std::string>());
        net.append("bindIp", vm["bind_ip"].as<std::string>());
    }
    if (vm.count("bind_ip_all")) {
        opts->server.bindIps = {"0.0.0.0"};
        net.append("bindIpAll", true);
    }
    if (vm.count("maxConns")) {
        opts->server.maxConns = vm["maxConns"].as<int>();
        net.append("maxIncomingConnections", opts->server.maxConns);
    }
    if (opts->server.maxConns < 5) {
        std::cerr << "BadValue: maxConns has to be at least 5\n"
                  << "try '" << argv[0] << " --help' for more information\n";
        return kExitBadOptions;
    }
    if (vm.count("logpath")) {
        opts->server.logpath = vm["logpath"].as<std::string>();
        systemLog.append("destination", "file");
        systemLog.append("path", opts->server.logpath);
    }
    if (vm.count("quiet")) {
        opts->server.quiet = true;
        systemLog.append("quiet", true);
    }
    if (vm.count("verbose"))
        opts->verbosity = 1;
    if (vm.count("replSet"))
        opts->server.replSet = vm["replSet"].as<std::string>();
    if (vm.count("oplogSize"))
        opts->oplogSizeMB = vm["oplogSize"].as<int>();
    if (vm.count("syncdelay"))
        opts->syncdelay = vm["syncdelay"].as<int>();
    if (vm.count("wiredTigerCacheSizeGB"))
        opts->server.cacheSizeGB = vm["wiredTigerCacheSizeGB"].as<double>();
    if (vm.count("wiredTigerCollectionBlockCompressor"))
        opts->server.collectionBlockCompressor =
            vm["wiredTigerCollectionBlockCompressor"].as<std::string>();
    if (vm.count("wiredTigerJournalCompressor"))
        opts->server.journalCompressor = vm["wiredTigerJournalCompressor"].as<std::string>();
    const auto& bc = opts->server.collectionBlockCompressor;
    if (bc != "none" && bc != "snappy" && bc != "zlib" && bc != "zstd") {
        std::cerr
            << "Error parsing command line: bad value for wiredTigerCollectionBlockCompressor: "
            << bc << "\n";
        return kExitBadOptions;
    }
    if (vm.count("setParameter")) {
        BSONObjBuilder sp;
        for (const auto& kv : vm["setParameter"].as<std::vector<std::string>>()) {
            auto eq = kv.find('=');
            if (eq == std::string::npos) {
                std::cerr << "Illegal option assignment: \"" << kv << "\"\n";
                return kExitBadOptions;
            }
            opts->setParameters.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
            sp.append(kv.substr(0, eq), kv.substr(eq + 1));
        }
        parsed.append("setParameter", sp.obj());
    }
    if (!net.isEmpty())
        parsed.append("net", net.obj());
    if (!storage.isEmpty())
        parsed.append("storage", storage.obj());
    if (!security.isEmpty())
        parsed.append("security", security.obj());
    if (!systemLog.isEmpty())
        parsed.append("systemLog", systemLog.obj());

    BSONArrayBuilder argvArr;
    for (int i = 0; i < argc; ++i)
        argvArr.append(argv[i]);
    opts->server.cmdLine =
        BSON("argv" << argvArr.arr() << "parsed" << mergeOptions(fileParsed.obj(), parsed.obj()));
    return -1;
}

/** Holds an exclusive flock on <dbpath>/mongod.lock for the life of the process. */
int acquireLockFile(const std::string& dbpath) {
    std::string path = dbpath + "/mongod.lock";
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
    if (fd < 0) {
        LOGV2_ERROR(20557, "Unable to create/open the lock file",
                    BSON("lockFile" << path << "error" << std::strerror(errno)));
        return -1;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        LOGV2_ERROR(20558,
                    "Unable to lock the lock file. Another mongod instance is already running on "
                    "the dbpath",
                    BSON("lockFile" << path << "error" << std::strerror(errno)));
        ::close(fd);
        return -1;
    }
    std::string pid = std::to_string(getpid()) + "\n";
    if (::ftruncate(fd, 0) == 0 && ::write(fd, pid.data(), pid.size()) > 0)
        ::fsync(fd);
    return fd;
}

int runMongod(int argc, char** argv) {
    ParsedOptions opts;
    int rc = parseOptions(argc, argv, &opts);
    if (rc >= 0)
        return rc;

    if (!opts.server.logpath.empty()) {
        Status s = logv2::setLogDestination(opts.server.logpath);
        if (!s.isOK()) {
            std::cerr << s.reason() << "\n";
            return 1;
        }
    }
    logv2::setQuiet(opts.server.quiet);
    logv2::setVerbosity(opts.verbosity);
    logv2::setThreadName("initandlisten");

    registerServerParameters_server_parameters();
    for (const auto& [name, value] : opts.setParameters) {
        Status s = ServerParameterSet::get()->setFromString(name, value);
        if (!s.isOK()) {
            std::cerr << s.reason() << "\n";
            return kExitBadOptions;
        }
    }

    if (!opts.keyFile.empty()) {
        auto key = auth::readSecurityKeyFile(opts.keyFile);
        if (!key.isOK()) {
            LOGV2_ERROR(20254, "Read security file failed",
                        BSON("error" << key.getStatus().toString()));
            std::cerr << key.getStatus().reason() << "\n";
            return 1;
        }
    }
    // A key file implies access control, as upstream.
    auth::AuthorizationManager::get().setAuthEnabled(opts.auth || !opts.keyFile.empty());

    // Signals are handled by one thread; all others block them.
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &sigs, nullptr);
    signal(SIGPIPE, SIG_IGN);

    LOGV2_OPTIONS(4615611, logv2::Component::kControl, "MongoDB starting",
                  BSON("pid" << static_cast<long long>(getpid()) << "port" << opts.server.port
                             << "dbPath" << opts.server.dbpath << "architecture"
                             << "64-bit"));
    LOGV2_OPTIONS(23403, logv2::Component::kControl, "Build Info",
                  BSON("buildInfo" << BSON("version"
                                           << "8.0.0")));
    LOGV2_OPTIONS(21951, logv2::Component::kControl, "Options set by command line",
                  BSON("options" << opts.server.cmdLine["parsed"].embeddedObject()));

    struct stat st;
    if (::stat(opts.server.dbpath.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        LOGV2_ERROR(20557, "NonExistentPath: Data directory not found",
                    BSON("dbpath" << opts.server.dbpath));
        return kExitDBPathInUse;
    }
    int lockFd = acquireLockFile(opts.server.dbpath);
    if (lockFd < 0)
        return kExitDBPathInUse;

    ServiceContext sc;
    sc.options = opts.server;
    ServiceContext::set(&sc);
    sc.requestShutdown = requestShutdown;

    StorageEngineOptions so;
    so.dbpath = opts.server.dbpath;
    so.cacheSizeGB = opts.server.cacheSizeGB;
    so.collectionBlockCompressor = opts.server.collectionBlockCompressor;
    so.journalCompressor = opts.server.journalCompressor;
    so.syncdelaySecs = opts.syncdelay;
    auto engineSw = WiredTigerKVEngine::open(so);
    if (!engineSw.isOK()) {
        LOGV2_ERROR(28595, "Failed to open the storage engine",
                    BSON("error" << engineSw.getStatus().toString()));
        return 1;
    }
    std::unique_ptr<WiredTigerKVEngine> engine = std::move(engineSw.getValue());
    sc.storageEngine = engine.get();
    setDiskSpaceMonitorPath(sc.options.dbpath);
    auto durableSw = DurableCatalog::open(engine.get());
    if (!durableSw.isOK()) {
        LOGV2_ERROR(28596, "Failed to open the durable catalog",
                    BSON("error" << durableSw.getStatus().toString()));
        return 1;
    }
    std::unique_ptr<DurableCatalog> durable = std::move(durableSw.getValue());
    sc.durableCatalog = durable.get();
    CollectionCatalog catalog(engine.get(), durable.get());
    sc.catalog = &catalog;
    CursorManager cursors;
    sc.cursorManager = &cursors;
    setCursorKillerForNamespace(
        [&cursors](const NamespaceString& nss) { cursors.killForNamespace(nss); });
    {
        OperationContext opCtx(&sc, nullptr, 0);
        opCtx.swapRecoveryUnit(engine->newRecoveryUnit());
        Status s = catalog.init(&opCtx);
        if (s.isOK())
            s = createStartupCollections(&opCtx);
        // Writes to system.buckets.* that bypass the bucket catalog clear its copies.
        getOpObserverRegistry().addObserver(std::make_unique<timeseries::TimeseriesOpObserver>());
        if (s.isOK() && !opts.server.replSet.empty()) {
            // Replica-set mode: every write also logs an oplog entry (repl/README.md).
            repl::LocalOplog::get()->setMaxSizeBytes(
                opts.oplogSizeMB > 0 ? opts.oplogSizeMB * 1024 * 1024
                                     : repl::defaultOplogSizeBytes(opts.server.dbpath));
            getOpObserverRegistry().addObserver(std::make_unique<repl::OpObserverImpl>());
        }
        if (s.isOK())
            s = repl::ReplicationCoordinator::get()->startup(&opCtx, sc.options);
        if (!s.isOK()) {
            LOGV2_ERROR(28597, "Failed to load the catalog", BSON("error" << s.toString()));
            return 1;
        }
    }

    ServiceEntryPointMongod sep(&sc);
    TransportLayer::Options tlOpts;
    tlOpts.bindIps = opts.server.bindIps;
    tlOpts.port = opts.server.port;
    tlOpts.maxConns = opts.server.maxConns;
    tlOpts.tls = opts.tls;
    if (opts.tls.mode != TlsMode::kDisabled && !opts.tls.disabledProtocolsGiven) {
        LOGV2_OPTIONS(23285, logv2::Component::kNetwork,
                      "Automatically disabling TLS 1.0, to force-enable TLS 1.0 specify "
                      "--sslDisabledProtocols 'none'");
    }
    TransportLayer tl(tlOpts, &sep);
    Status listenStatus = tl.setup();
    if (listenStatus.code() == ErrorCodes::InvalidSSLConfiguration) {
        LOGV2_ERROR(23248, "Unable to set up TLS", BSON("error" << listenStatus.toString()));
        std::cerr << listenStatus.toString() << "\n";
        engine->cleanShutdown();
        return 1;
    }
    if (!listenStatus.isOK()) {
        LOGV2_ERROR(20568, "Error setting up listener", BSON("error" << listenStatus.toString()));
        engine->cleanShutdown();
        return 48;
    }
    sc.transportLayer = &tl;
    sc.options.port =
        tl.boundPort();  // the real one when --port 0 asked for any ($collStats' host)
    tl.start();
    logv2::markStartupComplete();
    LOGV2_OPTIONS(23016, logv2::Component::kNetwork, "Waiting for connections",
                  BSON("port" << tl.boundPort() << "ssl"
                              << "off"));

    std::thread signalThread([&sigs] {
        logv2::setThreadName("signalProcessingThread");
        int sig = 0;
        while (sigwait(&sigs, &sig) == 0) {
            if (sig == SIGHUP)
                continue;
            LOGV2_OPTIONS(23377, logv2::Component::kControl, "Received signal",
                          BSON("signal" << sig << "error" << strsignal(sig)));
            requestShutdown();
            return;
        }
    });
    signalThread.detach();

    std::thread cursorMonitor([&sc, &cursors] {
        logv2::setThreadName("clientcursormon");
        std::unique_lock<std::mutex> lk(gShutdownMutex);
        while (!gShutdownRequested) {
            gShutdownCv.wait_for(lk,
                                 std::chrono::seconds(gClientCursorMonitorFrequencySecs.load()));
            if (gShutdownRequested)
                break;
            lk.unlock();
            cursors.timeoutCursors(gCursorTimeoutMillis.load());
            reapExpiredSessions(Date_t::now());
            lk.lock();
        }
    });

    TTLMonitor ttlMonitor(&sc);
    ttlMonitor.start();
    timeseries::rollups::RollupCatchUpMonitor rollupCatchUp(&sc);
    rollupCatchUp.start();

    {
        std::unique_lock<std::mutex> lk(gShutdownMutex);
        gShutdownCv.wait(lk, [] { return gShutdownRequested; });
    }
    LOGV2_OPTIONS(4784900, logv2::Component::kControl, "Shutting down");
    sc.shuttingDown = true;
    cursorMonitor.join();
    ttlMonitor.shutdown();
    rollupCatchUp.shutdown();
    tl.shutdown();
    sc.transportLayer = nullptr;
    cursors.killAll();
    engine->cleanShutdown();
    LOGV2_OPTIONS(4784931, logv2::Component::kControl, "Dropping the scope cache for shutdown");
    ::ftruncate(lockFd, 0);
    ::close(lockFd);
    LOGV2_OPTIONS(20565, logv2::Component::kControl, "Now exiting");
    LOGV2_OPTIONS(23138, logv2::Component::kControl, "Shutting down", BSON("exitCode" << 0));
    return 0;
}

}  // namespace
}  // namespace mongo

int main(int argc, char** argv) {
    return mongo::runMongod(argc, argv);
}
