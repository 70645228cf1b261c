#include "mongo/db/commands.h"

#include <set>

#include "mongo/idl/server_parameters_gen.h"

#include "mongo/util/assert_util.h"

namespace mongo {

namespace {
std::map<std::string, Command*>& byName() {
    static std::map<std::string, Command*> m;
    return m;
}
std::map<std::string, Command*>& byAlias() {
    static std::map<std::string, Command*> m;
    return m;
}
}  // namespace

Command::Command(StringData name, std::vector<std::string> aliases)
    : _name(name), _aliases(std::move(aliases)) {}

void CommandRegistry::registerCommand(Command* c) {
    invariant(byName().emplace(c->getName(), c).second);
    byAlias()[c->getName()] = c;
    for (const auto& a : c->getAliases())
        byAlias()[a] = c;
}

bool isInAPIVersion1(StringData invokedName) {
    static const std::set<std::string, std::less<>> kV1 = {"abortTransaction",
                                                           "aggregate",
                                                           "authenticate",
                                                           "collMod",
                                                           "commitTransaction",
                                                           "count",
                                                           "create",
                                                           "createIndexes",
                                                           "delete",
                                                           "drop",
                                                           "dropDatabase",
                                                           "dropIndexes",
                                                           "endSessions",
                                                           "explain",
                                                           "find",
                                                           "findAndModify",
                                                           "getMore",
                                                           "hello",
                                                           "insert",
                                                           "killCursors",
                                                           "listCollections",
                                                           "listDatabases",
                                                           "listIndexes",
                                                           "ping",
                                                           "refreshSessions",
                                                           "saslContinue",
                                                           "saslStart",
                                                           "update",
                                                           "testDeprecation"};
    return kV1.count(invokedName) > 0;
}

Command* CommandRegistry::find(StringData name) {
    auto it = byAlias().find(std::string(name));
    if (it == byAlias().end() || !isAvailable(*it->second))
        return nullptr;
    return it->second;
}

bool CommandRegistry::isAvailable(const Command& c) {
    return !c.testOnly() || gEnableTestCommands.load();
}

const std::map<std::string, Command*>& CommandRegistry::all() {
    return byName();
}

std::vector<BSONObj> CommandRequest::getObjectArray(StringData name) const {
    auto seq = sequences.find(std::string(name));
    if (seq != sequences.end()) {
        uassert(ErrorCodes::BadValue,
                "Duplicate field '" + std::string(name) + "' in body and document sequence",
                !body.hasField(name));
        return seq->second;
    }
    std::vector<BSONObj> out;
    BSONElement e = body[name];
    if (e.eoo())
        return out;
    uassert(ErrorCodes::TypeMismatch,
            "BSON field '" + std::string(commandName()) + "." + std::string(name) +
                "' is the wrong type '" + std::string(typeName(e.type())) +
                "', expected type 'array'",
            e.type() == BSONType::kArray);
    for (auto sub : e.embeddedObject()) {
        uassert(ErrorCodes::TypeMismatch,
                "BSON field '" + std::string(commandName()) + "." + std::string(name) + "." +
                    std::string(sub.fieldNameStringData()) + "' is the wrong type '" +
                    std::string(typeName(sub.type())) + "', expected type 'object'",
                sub.type() == BSONType::kObject);
        out.push_back(sub.embeddedObject());
    }
    return out;
}

BSONObj CommandRequest::bodyWithSequences() const {
    if (sequences.empty())
        return body;
    BSONObjBuilder b(body.objsize() + 1024);
    for (auto e : body) {
        uassert(ErrorCodes::BadValue,
                "Duplicate field '" + std::string(e.fieldNameStringData()) +
                    "' in body and document sequence",
                !sequences.count(std::string(e.fieldNameStringData())));
        b.append(e);
    }
    for (const auto& [name, docs] : sequences) {
        BSONArrayBuilder arr(b.subarrayStart(name));
        for (const auto& d : docs)
            arr.append(d);
    }
    return b.obj();
}

bool CommandRequest::hasArray(StringData name) const {
    return sequences.count(std::string(name)) || body.hasField(name);
}

NamespaceString CommandRequest::nsFromFirstElement() const {
    BSONElement first = body.firstElement();
    uassert(ErrorCodes::InvalidNamespace,
            "collection name has invalid type " + std::string(typeName(first.type())),
            first.type() == BSONType::kString);
    NamespaceString nss(dbName, first.valueStringData());
    uassertStatusOK(nss.validateCollectionName());
    return nss;
}

void appendCommandStatusNoThrow(BSONObjBuilder& result, const Status& status) {
    result.append("ok", 0.0);
    result.append("errmsg", status.reason());
    result.append("code", static_cast<int>(status.code()));
    result.append("codeName", status.codeString());
}

}  // namespace mongo
