// Server parameters: named, typed process-wide settings declared in idl/*.idl
// (`server_parameters:` section) and registered here by the generated code.
// Set at startup (`--setParameter name=value` -> setFromString) and/or at runtime
// (`setParameter` command -> set), read by `getParameter` (append / appendAll).
//
// Thread safety: the registry is filled during static initialisation and is read-only
// afterwards; parameter values are atomics (strings are mutex-protected), so set and
// append may race freely with readers of the generated globals.
#pragma once

#include <atomic>
#include <functional>
#include <initializer_list>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"
#include "mongo/bson/bsonelement.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

enum class ServerParameterType {
    kStartupOnly,
    kRuntimeOnly,
    kStartupAndRuntime,
};

/** One named parameter. Subclasses hold (or point to) the value. */
class ServerParameter {
public:
    ServerParameter(StringData name, ServerParameterType type) : _name(name), _type(type) {}
    virtual ~ServerParameter() = default;

    const std::string& name() const {
        return _name;
    }
    bool allowedToChangeAtStartup() const {
        return _type != ServerParameterType::kRuntimeOnly;
    }
    bool allowedToChangeAtRuntime() const {
        return _type != ServerParameterType::kStartupOnly;
    }

    /** Appends {name: value} to `b`. */
    virtual void append(BSONObjBuilder* b, StringData name) const = 0;
    /** Sets from a BSON value: BadValue/TypeMismatch if unusable or failing validation. */
    virtual Status set(const BSONElement& value) = 0;
    /** Sets from text (command line): BadValue if unparsable or failing validation. */
    virtual Status setFromString(StringData value) = 0;

private:
    std::string _name;
    ServerParameterType _type;
};

/** The process-wide registry of server parameters. */
class ServerParameterSet {
public:
    static ServerParameterSet* get();

    /** Registers `p` (not owned; lives forever). Invariant: the name is not taken. */
    void add(ServerParameter* p);
    ServerParameter* getIfExists(StringData name) const;

    /**
     * Startup path (--setParameter name=value). BadValue `Illegal --setParameter parameter:
     * "x"` for an unknown name, BadValue for a runtime-only one or an invalid value.
     */
    Status setFromString(StringData name, StringData value);
    /**
     * Runtime path (setParameter command). InvalidOptions for an unknown name,
     * IllegalOperation for a startup-only one, BadValue/TypeMismatch for bad values.
     */
    Status set(StringData name, const BSONElement& value);
    /** Appends {name: value}; NoSuchKey if there is no such parameter. */
    Status append(BSONObjBuilder* b, StringData name) const;
    /** Appends every parameter, in name order (getParameter: '*'). */
    void appendAll(BSONObjBuilder* b) const;

    const std::map<std::string, ServerParameter*, std::less<>>& getMap() const {
        return _map;
    }

private:
    std::map<std::string, ServerParameter*, std::less<>> _map;
};

namespace idl {

/** Parses text as a value of T (int, long long, bool, double, std::string). */
template <typename T>
StatusWith<T> parseParameterText(StringData name, StringData text);
/** Reads a BSON value as T (numbers must be integral for integer T). */
template <typename T>
StatusWith<T> parseParameterElement(StringData name, const BSONElement& elem);

template <>
StatusWith<int> parseParameterText<int>(StringData, StringData);
template <>
StatusWith<long long> parseParameterText<long long>(StringData, StringData);
template <>
StatusWith<bool> parseParameterText<bool>(StringData, StringData);
template <>
StatusWith<double> parseParameterText<double>(StringData, StringData);
template <>
StatusWith<std::string> parseParameterText<std::string>(StringData, StringData);
template <>
StatusWith<int> parseParameterElement<int>(StringData, const BSONElement&);
template <>
StatusWith<long long> parseParameterElement<long long>(StringData, const BSONElement&);
template <>
StatusWith<bool> parseParameterElement<bool>(StringData, const BSONElement&);
template <>
StatusWith<double> parseParameterElement<double>(StringData, const BSONElement&);
template <>
StatusWith<std::string> parseParameterElement<std::string>(StringData, const BSONElement&);

/** A bound check: returns BadValue "Invalid value for parameter ..." on failure. */
template <typename T>
using ParameterValidator = std::function<Status(const T&)>;

template <typename T>
Status validateParamGte(StringData name, const T& v, const T& bound);
template <typename T>
Status validateParamGt(StringData name, const T& v, const T& bound);
template <typename T>
Status validateParamLte(StringData name, const T& v, const T& bound);
template <typename T>
Status validateParamLt(StringData name, const T& v, const T& bound);
/** A string parameter's allowed values: BadValue "Invalid value for parameter ..." otherwise. */
Status validateParamOneOf(StringData name, const std::string& v,
                          std::initializer_list<StringData> allowed);

/** Storage for generated parameters: std::atomic<T>, or a locked string. */
template <typename T>
struct ParameterStorage {
    using type = std::atomic<T>;
};

/** A string parameter value; load()/store() like std::atomic. */
class SynchronizedString {
public:
    explicit SynchronizedString(std::string v = {}) : _v(std::move(v)) {}
    std::string load() const {
        std::lock_guard<std::mutex> lk(_m);
        return _v;
    }
    void store(std::string v) {
        std::lock_guard<std::mutex> lk(_m);
        _v = std::move(v);
    }

private:
    mutable std::mutex _m;
    std::string _v;
};

template <>
struct ParameterStorage<std::string> {
    using type = SynchronizedString;
};

/** A parameter bound to generated storage, with optional validators. */
template <typename T>
class IDLServerParameterWithStorage : public ServerParameter {
public:
    using Storage = typename ParameterStorage<T>::type;
    IDLServerParameterWithStorage(StringData name, ServerParameterType type, Storage* storage,
                                  std::vector<ParameterValidator<T>> validators = {})
        : ServerParameter(name, type), _storage(storage), _validators(std::move(validators)) {}

    void append(BSONObjBuilder* b, StringData name) const override {
        T v = _storage->load();
        b->append(name, v);
    }
    Status set(const BSONElement& value) override {
        auto sw = parseParameterElement<T>(this->name(), value);
        if (!sw.isOK())
            return sw.getStatus();
        return store(std::move(sw.getValue()));
    }
    Status setFromString(StringData value) override {
        auto sw = parseParameterText<T>(this->name(), value);
        if (!sw.isOK())
            return sw.getStatus();
        return store(std::move(sw.getValue()));
    }

private:
    Status store(T v) {
        for (const auto& fn : _validators) {
            Status s = fn(v);
            if (!s.isOK())
                return s;
        }
        _storage->store(std::move(v));
        return Status::OK();
    }

    Storage* _storage;
    std::vector<ParameterValidator<T>> _validators;
};

}  // namespace idl
}  // namespace mongo
