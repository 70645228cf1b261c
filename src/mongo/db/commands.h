// Commands: the base class every command implements, the registry that finds a
// command by name, and CommandRequest (the parsed body plus any OP_MSG document
// sequences). The dispatcher (service_entry_point_mongod.cpp) is the one place
// that catches DBException and builds {ok: 0, errmsg, code, codeName}.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/stats/operation_latency_histogram.h"

namespace mongo {

class OperationContext;

/** One command invocation as received: target database, body, document sequences. */
struct CommandRequest {
    std::string dbName;
    BSONObj body;
    /** OP_MSG kind-1 sections by identifier (e.g. "documents" for insert). */
    std::map<std::string, std::vector<BSONObj>> sequences;

    StringData commandName() const {
        return body.firstElementFieldNameStringData();
    }
    /**
     * The array argument `name`: from a document sequence when present, else from the
     * body. Throws BadValue/TypeMismatch when malformed; an absent field gives an empty list.
     */
    std::vector<BSONObj> getObjectArray(StringData name) const;
    /** True when the field is given either as a sequence or in the body. */
    bool hasArray(StringData name) const;
    /** The body with every document sequence appended as an array field (for IDL parsing). */
    BSONObj bodyWithSequences() const;
    /** "<db>.<first element's string value>" for commands naming a collection. */
    NamespaceString nsFromFirstElement() const;
};

class Command {
public:
    explicit Command(StringData name, std::vector<std::string> aliases = {});
    virtual ~Command() = default;

    const std::string& getName() const {
        return _name;
    }
    const std::vector<std::string>& getAliases() const {
        return _aliases;
    }

    /** Runs the command; appends the reply fields (without `ok`) to `result`. Throws on error. */
    virtual void run(OperationContext* opCtx, const CommandRequest& request,
                     BSONObjBuilder& result) = 0;

    /** Must be run against the admin database (Unauthorized 13 otherwise). */
    virtual bool adminOnly() const {
        return false;
    }
    /** Exists only when mongod runs with --setParameter enableTestCommands=1. */
    virtual bool testOnly() const {
        return false;
    }
    /** Counted in serverStatus opcounters.command unless it is a CRUD command. */
    virtual bool isWriteCommand() const {
        return false;
    }
    /**
     * Writes data (or catalog metadata), so the dispatcher refuses it with OutOfDiskSpace 14031
     * while the data directory's filesystem is nearly full (diskSpaceMinFreeMB). By default
     * the write commands; DDL that creates or changes collections or indexes, applyOps and
     * aggregate with $out/$merge too. Commands that only free space (drop...) do not.
     */
    virtual bool writesData(const CommandRequest& request) const {
        return isWriteCommand();
    }
    virtual std::string help() const {
        return "";
    }
    /**
     * Under apiStrict: throws APIStrictError 323 when the request uses a field outside API
     * Version 1 (the IDL's `stability: unstable` fields). The dispatcher calls it before run();
     * explain calls the explained command's.
     */
    virtual void checkAPIStrictFields(const OperationContext* opCtx,
                                      const CommandRequest& request) const {}
    /** Deprecated in API Version 1: refused with apiDeprecationErrors: true (324). */
    virtual bool deprecatedInAPIVersion1() const {
        return false;
    }
    /** How the command counts in per-collection latency statistics (Top). */
    virtual ReadWriteType getReadWriteType() const {
        return ReadWriteType::kCommand;
    }

private:
    std::string _name;
    std::vector<std::string> _aliases;
};

class CommandRegistry {
public:
    static void registerCommand(Command* c);
    /**
     * The command named `name` (case-sensitive, aliases included), or null (also for a
     * test-only command while test commands are disabled).
     */
    static Command* find(StringData name);
    /** False for a test-only command while enableTestCommands is off. */
    static bool isAvailable(const Command& c);
    /** All commands by their primary name. */
    static const std::map<std::string, Command*>& all();
};

/** Registers a command object at static-initialisation time: MONGO_REGISTER_COMMAND(PingCmd). */
#define MONGO_REGISTER_COMMAND(CLASS)                         \
    namespace {                                               \
    const bool CLASS##_registered = [] {                      \
        static CLASS instance;                                \
        ::mongo::CommandRegistry::registerCommand(&instance); \
        return true;                                          \
    }();                                                      \
    }

/**
 * True when the command invoked as `name` is in API Version 1 (as upstream 8.0: by the name it
 * is invoked with, so `findAndModify` is and its alias `findandmodify` is not).
 */
bool isInAPIVersion1(StringData invokedName);

/** Appends {ok: 0, errmsg, code, codeName} (and any extra info) for `status`. */
void appendCommandStatusNoThrow(BSONObjBuilder& result, const Status& status);

}  // namespace mongo
