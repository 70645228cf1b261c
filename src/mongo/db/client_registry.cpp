#include "mongo/db/client_registry.h"

#include "mongo/db/auth/authorization_session.h"

#include <unistd.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands.h"
#include "mongo/db/cursor_manager.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/transport/client.h"
#include "mongo/transport/transport_layer.h"
#include "mongo/util/time_support.h"

namespace mongo {
namespace {

// Upstream truncates each reported command to 1000 bytes when truncateOps is set.
constexpr int kMaxReportedCommandBytes = 1000;

std::string hostAndPort() {
    char host[256] = {0};
    ::gethostname(host, sizeof(host) - 1);
    ServiceContext* sc = ServiceContext::get();
    int port = 27017;
    if (sc)
        port = sc->transportLayer ? sc->transportLayer->boundPort() : sc->options.port;
    return std::string(host) + ":" + std::to_string(port);
}

/** Date_t::toString() says "Z"; upstream's currentOpTime spells the offset "+00:00". */
std::string currentOpTime() {
    std::string s = Date_t::now().toString();
    if (!s.empty() && s.back() == 'Z') {
        s.pop_back();
        s += "+00:00";
    }
    return s;
}

/** {name: obj}, or {name: {$truncated: "<obj as text>...", comment}} when obj is too large. */
void appendMaybeTruncated(BSONObjBuilder* b, StringData name, const BSONObj& obj, bool truncate) {
    if (!truncate || obj.objsize() <= kMaxReportedCommandBytes) {
        b->append(name, obj);
        return;
    }
    BSONObjBuilder withoutComment;
    for (const auto& e : obj)
        if (e.fieldNameStringData() != "comment")
            withoutComment.append(e);
    std::string text = withoutComment.obj().toString();
    if (text.size() > static_cast<size_t>(kMaxReportedCommandBytes))
        text = text.substr(0, kMaxReportedCommandBytes - 3) + "...";
    BSONObjBuilder t(b->subobjStart(name));
    t.append("$truncated", text);
    if (BSONElement comment = obj["comment"]; !comment.eoo())
        t.append(comment);
}

void appendClient(BSONObjBuilder* b, const std::string& host, Client* client, bool active) {
    b->append("type", "op");
    b->append("host", host);
    b->append("desc", client->desc());
    b->append("connectionId", static_cast<long long>(client->connectionId()));
    b->append("client", client->remote());
    if (client->hasClientMetadata()) {
        BSONObj md = client->clientMetadata();
        BSONElement app = md["application"];
        if (app.type() == BSONType::kObject && app.Obj()["name"].type() == BSONType::kString)
            b->append("appName", app.Obj()["name"].valueStringData());
        b->append("clientMetadata", md);
    }
    if (auto* session = auth::AuthorizationSession::get(client); session->isAuthenticated()) {
        BSONArrayBuilder users(b->subarrayStart("effectiveUsers"));
        for (const auto& u : session->userNames())
            users.append(u.toBSON());
    }
    b->append("active", active);
    b->append("currentOpTime", currentOpTime());
    b->append("threaded", true);
}

void appendOp(BSONObjBuilder* b, OperationContext* op, bool truncate) {
    const auto& d = op->description();
    b->append("opid", static_cast<int>(op->getOpID()));
    if (op->isKillPending())
        b->append("killPending", true);
    if (!d.lsid.isEmpty())
        b->append("lsid", d.lsid);
    const long long micros = curTimeMicros64() - op->startMicros();
    b->append("secs_running", micros / 1000000);
    b->append("microsecs_running", micros);
    b->append("op", d.op);
    b->append("ns", d.ns);
    appendMaybeTruncated(b, "command", d.command, truncate);
    std::string summary = op->planSummary();
    if (!summary.empty())
        b->append("planSummary", summary);
    std::string failPoint = op->failPointMsg();
    if (!failPoint.empty())
        b->append("failpointMsg", failPoint);
    b->append("numYields", 0);
    // No lock manager: operations never wait for locks or flow control.
    b->append("locks", BSONObj());
    b->append("waitingForLock", false);
    b->append("lockStats", BSONObj());
    b->append("waitingForFlowControl", false);
    b->append("flowControlStats", BSONObj());
}

BSONObj idleCursorDoc(const std::string& host, const ClientCursor& c, bool truncate) {
    BSONObjBuilder b;
    b.append("type", "idleCursor");
    b.append("host", host);
    b.append("ns", c.nss.ns());
    if (BSONElement lsid = c.originatingCommand["lsid"]; lsid.type() == BSONType::kObject)
        b.append("lsid", lsid.Obj());
    if (!c.planSummary.empty())
        b.append("planSummary", c.planSummary);
    BSONObjBuilder cur(b.subobjStart("cursor"));
    cur.append("cursorId", c.id);
    cur.append("createdDate", c.createdDate);
    cur.append("lastAccessDate", c.lastUsed);
    cur.append("nDocsReturned", c.nReturned);
    cur.append("nBatchesReturned", c.nBatchesReturned);
    cur.append("noCursorTimeout", c.noCursorTimeout);
    cur.append("tailable", c.tailable);
    cur.append("awaitData", c.awaitData);
    appendMaybeTruncated(&cur, "originatingCommand", c.originatingCommand, truncate);
    cur.done();
    return b.obj();
}

std::string logicalOp(StringData commandName) {
    if (commandName == "find")
        return "query";
    if (commandName == "insert" || commandName == "update")
        return std::string(commandName);
    if (commandName == "delete")
        return "remove";
    if (commandName == "getMore")
        return "getmore";
    return "command";
}

const bool kReporterInstalled = [] {
    setCurrentOpReporter([](OperationContext* self, const CurrentOpOptions& options) {
        return ClientRegistry::get().report(self, options);
    });
    return true;
}();

}  // namespace

ClientRegistry& ClientRegistry::get() {
    static ClientRegistry registry;
    return registry;
}

void ClientRegistry::addClient(Client* client) {
    std::lock_guard lk(_mutex);
    _clients[client->connectionId()] = Entry{client, nullptr};
}

void ClientRegistry::removeClient(Client* client) {
    std::lock_guard lk(_mutex);
    _clients.erase(client->connectionId());
}

ClientRegistry::ActiveOp::ActiveOp(Client* client, OperationContext* opCtx)
    : _client(client), _opCtx(opCtx) {
    if (!_client)
        return;
    auto& r = ClientRegistry::get();
    std::lock_guard lk(r._mutex);
    auto it = r._clients.find(_client->connectionId());
    if (it == r._clients.end() || it->second.client != _client) {
        _client = nullptr;  // a Client the dispatcher never registered (tests, internal)
        return;
    }
    _outer = it->second.op;
    it->second.op = _opCtx;
}

ClientRegistry::ActiveOp::~ActiveOp() {
    if (!_client)
        return;
    auto& r = ClientRegistry::get();
    std::lock_guard lk(r._mutex);
    auto it = r._clients.find(_client->connectionId());
    if (it != r._clients.end())
        it->second.op = _outer;
}

bool ClientRegistry::killOp(long long opId, ErrorCodes::Error code) {
    std::lock_guard lk(_mutex);
    for (auto& [id, entry] : _clients) {
        // Opids are reported as 32-bit numbers: compare in that form.
        if (entry.op &&
            static_cast<unsigned int>(entry.op->getOpID()) == static_cast<unsigned int>(opId)) {
            entry.op->markKilled(code);
            return true;
        }
    }
    return false;
}

size_t ClientRegistry::killSessionOps(const std::function<bool(const BSONObj& lsid)>& match,
                                      ErrorCodes::Error code) {
    std::lock_guard lk(_mutex);
    size_t n = 0;
    for (auto& [id, entry] : _clients) {
        if (entry.op && !entry.op->description().lsid.isEmpty() &&
            match(entry.op->description().lsid)) {
            entry.op->markKilled(code);
            ++n;
        }
    }
    return n;
}

std::vector<BSONObj> ClientRegistry::report(OperationContext* self,
                                            const CurrentOpOptions& options) {
    // Without authentication every operation is the caller's own, so allUsers changes nothing.
    // Under --auth, without allUsers only connections authenticated as the caller's users show.
    const std::string host = hostAndPort();
    const bool ownOnly = !options.allUsers && auth::AuthorizationManager::get().isAuthEnabled();
    std::vector<auth::UserName> selfUsers;
    if (ownOnly && self && self->getClient())
        selfUsers = auth::AuthorizationSession::get(self->getClient())->userNames();
    std::vector<BSONObj> out;
    {
        std::lock_guard lk(_mutex);
        for (const auto& [id, entry] : _clients) {
            if (!entry.op && !options.idleConnections)
                continue;
            if (ownOnly && auth::AuthorizationSession::get(entry.client)->userNames() != selfUsers)
                continue;
            BSONObjBuilder b;
            appendClient(&b, host, entry.client, entry.op != nullptr);
            if (entry.op)
                appendOp(&b, entry.op, options.truncateOps);
            out.push_back(b.obj());
        }
    }
    ServiceContext* sc = self ? self->getServiceContext() : ServiceContext::get();
    if (options.idleCursors && sc && sc->cursorManager) {
        sc->cursorManager->forEachIdle([&](const ClientCursor& c) {
            out.push_back(idleCursorDoc(host, c, options.truncateOps));
        });
    }
    return out;
}

void ClientRegistry::describe(const CommandRequest& req, OperationContext* opCtx) {
    OperationContext::Description d;
    StringData name = req.commandName();
    d.op = logicalOp(name);
    BSONElement first = req.body.firstElement();
    if (first.type() == BSONType::kString)
        d.ns = req.dbName + "." + std::string(first.valueStringData());
    else if (name == "getMore" && req.body["collection"].type() == BSONType::kString)
        d.ns = req.dbName + "." + std::string(req.body["collection"].valueStringData());
    else if (name == "aggregate")
        d.ns = req.dbName + ".$cmd.aggregate";
    else
        d.ns = req.dbName + ".$cmd";
    d.command = req.body.getOwned();
    if (BSONElement lsid = req.body["lsid"]; lsid.type() == BSONType::kObject)
        d.lsid = lsid.Obj().getOwned();
    opCtx->setDescription(std::move(d));
}

}  // namespace mongo
