// Small commands every client or shell sends: ping, buildInfo, getLog,
// getCmdLineOpts, hostInfo, connectionStatus, whatsmyuri, listCommands, and the
// logical-session commands (sessions are accepted; no session state is kept).
#include <dlfcn.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/commands.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/logv2/log.h"
#include "mongo/transport/client.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

class PingCmd : public Command {
public:
    PingCmd() : Command("ping") {}
    void run(OperationContext*, const CommandRequest&, BSONObjBuilder&) override {}
};
MONGO_REGISTER_COMMAND(PingCmd)

/** Test command (enableTestCommands): a command in API Version 1 that is deprecated there. */
class TestDeprecationCmd : public Command {
public:
    TestDeprecationCmd() : Command("testDeprecation") {}
    bool testOnly() const override {
        return true;
    }
    bool deprecatedInAPIVersion1() const override {
        return true;
    }
    void run(OperationContext*, const CommandRequest&, BSONObjBuilder&) override {}
};
MONGO_REGISTER_COMMAND(TestDeprecationCmd)

/**
 * The allocator mongod runs on, in 8.0's words: gperftools' tcmalloc when the binary links it
 * (site_scons/mongo_build.py does, except under sanitizers), else the C library's.
 */
const char* linkedAllocator() {
    return dlsym(RTLD_DEFAULT, "tc_malloc") ? "tcmalloc-gperf" : "system";
}

class BuildInfoCmd : public Command {
public:
    BuildInfoCmd() : Command("buildInfo", {"buildinfo"}) {}
    void run(OperationContext*, const CommandRequest&, BSONObjBuilder& result) override {
        result.append("version", "8.0.0");
        result.append("gitVersion", "0000000000000000000000000000000000000000");
        result.append("allocator", linkedAllocator());
        result.append("javascriptEngine", "none");
        result.append("sysInfo", "deprecated");
        result.append("versionArray", BSON_ARRAY(8 << 0 << 0 << 0));
        // TLS and SCRAM go through OpenSSL (transport/, db/auth/).
        result.append("openssl", BSON("running" << OpenSSL_version(OPENSSL_VERSION) << "compiled"
                                                << OPENSSL_VERSION_TEXT));
        result.append("buildEnvironment", BSON("distmod"
                                               << "debian12"
                                               << "distarch"
                                               << "x86_64"
                                               << "cc"
                                               << "gcc"
                                               << "target_arch"
                                               << "x86_64"
                                               << "target_os"
                                               << "linux"));
        result.append("bits", 64);
        result.append("debug", false);
        result.append("maxBsonObjectSize", BSONObjMaxUserSize);
        result.append("storageEngines", BSON_ARRAY("wiredTiger"));
        result.append("modules", BSONArray());
    }
};
MONGO_REGISTER_COMMAND(BuildInfoCmd)

class GetLogCmd : public Command {
public:
    GetLogCmd() : Command("getLog") {}
    bool adminOnly() const override {
        return true;
    }
    void run(OperationContext*, const CommandRequest& req, BSONObjBuilder& result) override {
        BSONElement e = req.body.firstElement();
        uassert(ErrorCodes::TypeMismatch,
                "Argument to getLog must be of type String; found " + e.toString(false) +
                    " of type " + std::string(typeName(e.type())),
                e.type() == BSONType::kString);
        StringData which = e.valueStringData();
        if (which == "*") {
            result.append("names", BSON_ARRAY("global"
                                              << "startupWarnings"));
            return;
        }
        std::vector<std::string> lines;
        if (which == "global")
            lines = logv2::recentLines();
        else if (which == "startupWarnings")
            lines = logv2::startupWarnings();
        else
            uasserted(ErrorCodes::OperationFailed, "No log named '" + std::string(which) + "'");
        result.append("totalLinesWritten", static_cast<int>(lines.size()));
        BSONArrayBuilder arr(result.subarrayStart("log"));
        for (const auto& l : lines)
            arr.append(l);
    }
};
MONGO_REGISTER_COMMAND(GetLogCmd)

class GetCmdLineOptsCmd : public Command {
public:
    GetCmdLineOptsCmd() : Command("getCmdLineOpts") {}
    bool adminOnly() const override {
        return true;
    }
    void run(OperationContext* opCtx, const CommandRequest&, BSONObjBuilder& result) override {
        result.appendElements(opCtx->getServiceContext()->options.cmdLine);
    }
};
MONGO_REGISTER_COMMAND(GetCmdLineOptsCmd)

long long readMemInfoMB(const char* key) {
    std::ifstream f("/proc/meminfo");
    std::string k;
    long long v;
    std::string unit;
    while (f >> k >> v >> unit) {
        if (k == key)
            return v / 1024;
    }
    return 0;
}

class HostInfoCmd : public Command {
public:
    HostInfoCmd() : Command("hostInfo") {}
    void run(OperationContext*, const CommandRequest&, BSONObjBuilder& result) override {
        struct utsname u;
        uname(&u);
        char host[256] = {0};
        gethostname(host, sizeof(host) - 1);
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        long long memMB = readMemInfoMB("MemTotal:");
        {
            BSONObjBuilder sys(result.subobjStart("system"));
            sys.append("currentTime", Date_t::now());
            sys.append("hostname", host);
            sys.append("cpuAddrSize", 64);
            sys.append("memSizeMB", memMB);
            sys.append("memLimitMB", memMB);
            sys.append("numCores", static_cast<int>(cores));
            sys.append("numCoresAvailableToProcess", static_cast<int>(cores));
            sys.append("numPhysicalCores", static_cast<int>(cores));
            sys.append("numCpuSockets", 1);
            sys.append("cpuArch", u.machine);
            sys.append("numaEnabled", false);
            sys.append("numNumaNodes", 1);
        }
        {
            BSONObjBuilder os(result.subobjStart("os"));
            os.append("type", "Linux");
            os.append("name", "Debian GNU/Linux 12");
            os.append("version", u.release);
        }
        {
            BSONObjBuilder extra(result.subobjStart("extra"));
            extra.append("versionString",
                         std::string(u.sysname) + " " + u.release + " " + u.version);
            extra.append("pageSize", static_cast<long long>(sysconf(_SC_PAGESIZE)));
        }
    }
};
MONGO_REGISTER_COMMAND(HostInfoCmd)

class ConnectionStatusCmd : public Command {
public:
    ConnectionStatusCmd() : Command("connectionStatus") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto* session = auth::AuthorizationSession::get(opCtx->getClient());
        BSONObjBuilder info(result.subobjStart("authInfo"));
        BSONArrayBuilder users(info.subarrayStart("authenticatedUsers"));
        BSONArrayBuilder roles;
        BSONArrayBuilder privileges;
        if (session) {
            for (const auto& u : session->userNames())
                users.append(u.toBSON());
            if (req.body["showPrivileges"].trueValue()) {
                for (const auto& p : session->privileges(opCtx))
                    privileges.append(p.toBSON());
            } else {
                session->privileges(opCtx);  // resolves the roles as well
            }
            for (const auto& r : session->roleNames())
                roles.append(r.toBSON());
        }
        users.done();
        info.append("authenticatedUserRoles", roles.arr());
        if (req.body["showPrivileges"].trueValue())
            info.append("authenticatedUserPrivileges", privileges.arr());
    }
};
MONGO_REGISTER_COMMAND(ConnectionStatusCmd)

class WhatsMyUriCmd : public Command {
public:
    WhatsMyUriCmd() : Command("whatsmyuri") {}
    void run(OperationContext* opCtx, const CommandRequest&, BSONObjBuilder& result) override {
        result.append("you", opCtx->getClient() ? opCtx->getClient()->remote() : std::string());
    }
};
MONGO_REGISTER_COMMAND(WhatsMyUriCmd)

class ListCommandsCmd : public Command {
public:
    ListCommandsCmd() : Command("listCommands") {}
    void run(OperationContext*, const CommandRequest&, BSONObjBuilder& result) override {
        BSONObjBuilder cmds(result.subobjStart("commands"));
        for (const auto& [name, cmd] : CommandRegistry::all()) {
            if (!CommandRegistry::isAvailable(*cmd))
                continue;
            BSONObjBuilder c(cmds.subobjStart(name));
            c.append("help", cmd->help());
            c.append("requiresAuth", true);
            c.append("secondaryOk", !cmd->isWriteCommand());
            c.append("adminOnly", cmd->adminOnly());
            c.append("apiVersions", isInAPIVersion1(name) ? BSON_ARRAY("1") : BSONArray());
            c.append("deprecatedApiVersions",
                     cmd->deprecatedInAPIVersion1() ? BSON_ARRAY("1") : BSONArray());
        }
    }
};
MONGO_REGISTER_COMMAND(ListCommandsCmd)

class ShutdownCmd : public Command {
public:
    ShutdownCmd() : Command("shutdown") {}
    bool adminOnly() const override {
        return true;
    }
    void run(OperationContext* opCtx, const CommandRequest&, BSONObjBuilder&) override {
        LOGV2(4695400, "Received shutdown command");
        auto* sc = opCtx->getServiceContext();
        if (sc->requestShutdown)
            sc->requestShutdown();
    }
};
MONGO_REGISTER_COMMAND(ShutdownCmd)

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

/** fsync: writes a checkpoint (and flushes the journal). `lock: true` is not supported. */
class FsyncCmd : public Command {
public:
    FsyncCmd() : Command("fsync") {}
    bool adminOnly() const override {
        return true;
    }
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        uassert(ErrorCodes::CommandNotSupported, "fsync with lock: true is not supported",
                !req.body["lock"].trueValue());
        auto* engine = opCtx->getServiceContext()->storageEngine;
        uassert(ErrorCodes::IllegalOperation, "no storage engine", engine);
        uassertStatusOK(engine->checkpoint());
        result.append("numFiles", 1);
    }
};
MONGO_REGISTER_COMMAND(FsyncCmd)

}  // namespace
}  // namespace mongo
