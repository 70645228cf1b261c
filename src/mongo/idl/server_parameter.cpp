// The server parameter registry and the value parsers used by generated parameters.
#include "mongo/idl/server_parameter.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "mongo/util/assert_util.h"

namespace mongo {

ServerParameterSet* ServerParameterSet::get() {
    static ServerParameterSet* set = new ServerParameterSet();
    return set;
}

void ServerParameterSet::add(ServerParameter* p) {
    bool inserted = _map.emplace(p->name(), p).second;
    invariantWithMsg(inserted, "duplicate server parameter " + p->name());
}

ServerParameter* ServerParameterSet::getIfExists(StringData name) const {
    auto it = _map.find(name);
    return it == _map.end() ? nullptr : it->second;
}

Status ServerParameterSet::setFromString(StringData name, StringData value) {
    ServerParameter* p = getIfExists(name);
    if (!p)
        return Status(ErrorCodes::BadValue,
                      "Illegal --setParameter parameter: \"" + std::string(name) + "\"");
    if (!p->allowedToChangeAtStartup())
        return Status(ErrorCodes::BadValue,
                      "Cannot use --setParameter to set \"" + std::string(name) + "\" at startup");
    return p->setFromString(value);
}

Status ServerParameterSet::set(StringData name, const BSONElement& value) {
    ServerParameter* p = getIfExists(name);
    if (!p)
        return Status(ErrorCodes::InvalidOptions, "attempted to set unrecognized parameter [" +
                                                      std::string(name) +
                                                      "], use help:true to see options ");
    if (!p->allowedToChangeAtRuntime())
        return Status(ErrorCodes::IllegalOperation,
                      "not allowed to change [" + std::string(name) + "] at runtime");
    return p->set(value);
}

Status ServerParameterSet::append(BSONObjBuilder* b, StringData name) const {
    ServerParameter* p = getIfExists(name);
    if (!p)
        return Status(ErrorCodes::NoSuchKey, "no such server parameter " + std::string(name));
    p->append(b, name);
    return Status::OK();
}

void ServerParameterSet::appendAll(BSONObjBuilder* b) const {
    for (const auto& [name, p] : _map)
        p->append(b, name);
}

namespace idl {
namespace {

Status badValue(StringData name, StringData text, StringData what) {
    return Status(ErrorCodes::BadValue, "Invalid value for parameter " + std::string(name) + ": '" +
                                            std::string(text) + "' is not " + std::string(what));
}

template <typename T>
StatusWith<T> parseInteger(StringData name, StringData text) {
    T v{};
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || text.empty())
        return badValue(name, text, "a valid integer");
    return v;
}

template <typename T>
StatusWith<T> integerFromElement(StringData name, const BSONElement& e) {
    if (!e.isNumber())
        return Status(ErrorCodes::TypeMismatch, "Invalid value for parameter " + std::string(name) +
                                                    ": expected a number, got " +
                                                    std::string(typeName(e.type())));
    double d = e.numberDouble();
    if (e.type() != BSONType::kNumberLong && e.type() != BSONType::kNumberInt) {
        if (std::isnan(d) || std::trunc(d) != d)
            return badValue(name, e.toString(false), "an integer");
    }
    long long v = e.numberLong();
    if (v < static_cast<long long>(std::numeric_limits<T>::min()) ||
        v > static_cast<long long>(std::numeric_limits<T>::max()))
        return badValue(name, e.toString(false), "in range");
    return static_cast<T>(v);
}

}  // namespace

template <>
StatusWith<int> parseParameterText<int>(StringData name, StringData text) {
    return parseInteger<int>(name, text);
}
template <>
StatusWith<long long> parseParameterText<long long>(StringData name, StringData text) {
    return parseInteger<long long>(name, text);
}
template <>
StatusWith<bool> parseParameterText<bool>(StringData name, StringData text) {
    if (text == "true" || text == "1")
        return true;
    if (text == "false" || text == "0")
        return false;
    return badValue(name, text, "a boolean");
}
template <>
StatusWith<double> parseParameterText<double>(StringData name, StringData text) {
    std::string s(text);
    char* end = nullptr;
    errno = 0;
    double d = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || errno)
        return badValue(name, text, "a valid number");
    return d;
}
template <>
StatusWith<std::string> parseParameterText<std::string>(StringData, StringData text) {
    return std::string(text);
}

template <>
StatusWith<int> parseParameterElement<int>(StringData name, const BSONElement& e) {
    return integerFromElement<int>(name, e);
}
template <>
StatusWith<long long> parseParameterElement<long long>(StringData name, const BSONElement& e) {
    return integerFromElement<long long>(name, e);
}
template <>
StatusWith<bool> parseParameterElement<bool>(StringData name, const BSONElement& e) {
    if (e.type() == BSONType::kBool || e.isNumber())
        return e.trueValue();
    if (e.type() == BSONType::kString)
        return parseParameterText<bool>(name, e.valueStringData());
    return Status(ErrorCodes::TypeMismatch,
                  "Invalid value for parameter " + std::string(name) + ": expected a boolean");
}
template <>
StatusWith<double> parseParameterElement<double>(StringData name, const BSONElement& e) {
    if (!e.isNumber())
        return Status(ErrorCodes::TypeMismatch,
                      "Invalid value for parameter " + std::string(name) + ": expected a number");
    return e.numberDouble();
}
template <>
StatusWith<std::string> parseParameterElement<std::string>(StringData name, const BSONElement& e) {
    if (e.type() != BSONType::kString)
        return Status(ErrorCodes::TypeMismatch,
                      "Invalid value for parameter " + std::string(name) + ": expected a string");
    return e.str();
}

namespace {
template <typename T>
Status boundFailure(StringData name, const T& v, StringData what, const T& bound) {
    std::ostringstream os;
    os << "Invalid value for parameter " << name << ": " << v << " is not " << what << " " << bound;
    return Status(ErrorCodes::BadValue, os.str());
}
}  // namespace

template <typename T>
Status validateParamGte(StringData name, const T& v, const T& bound) {
    return v >= bound ? Status::OK() : boundFailure(name, v, "greater than or equal to", bound);
}
template <typename T>
Status validateParamGt(StringData name, const T& v, const T& bound) {
    return v > bound ? Status::OK() : boundFailure(name, v, "greater than", bound);
}
template <typename T>
Status validateParamLte(StringData name, const T& v, const T& bound) {
    return v <= bound ? Status::OK() : boundFailure(name, v, "less than or equal to", bound);
}
template <typename T>
Status validateParamLt(StringData name, const T& v, const T& bound) {
    return v < bound ? Status::OK() : boundFailure(name, v, "less than", bound);
}

Status validateParamOneOf(StringData name, const std::string& v,
                          std::initializer_list<StringData> allowed) {
    std::string list;
    for (StringData a : allowed) {
        if (a == v)
            return Status::OK();
        list += (list.empty() ? "'" : ", '") + std::string(a) + "'";
    }
    return Status(ErrorCodes::BadValue, "Invalid value for parameter " + std::string(name) + ": '" +
                                            v + "' is not one of " + list);
}

#define INSTANTIATE_VALIDATORS(T)                                        \
    template Status validateParamGte<T>(StringData, const T&, const T&); \
    template Status validateParamGt<T>(StringData, const T&, const T&);  \
    template Status validateParamLte<T>(StringData, const T&, const T&); \
    template Status validateParamLt<T>(StringData, const T&, const T&);
INSTANTIATE_VALIDATORS(int)
INSTANTIATE_VALIDATORS(long long)
INSTANTIATE_VALIDATORS(double)
#undef INSTANTIATE_VALIDATORS

}  // namespace idl
}  // namespace mongo
