// String operators: $concat $substr $substrBytes $substrCP $toLower $toUpper
// $strLenBytes $strLenCP $split $trim $ltrim $rtrim $indexOfBytes $indexOfCP
// $strcasecmp $replaceOne $replaceAll $regexMatch $regexFind $regexFindAll.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cctype>
#include <memory>

#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/expression_memory.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

bool isContinuationByte(unsigned char c) {
    return (c & 0xC0) == 0x80;
}

size_t utf8Length(StringData s) {
    size_t n = 0;
    for (unsigned char c : s)
        if (!isContinuationByte(c))
            ++n;
    return n;
}

/** Byte offset of code point `cp` (or s.size()). */
size_t cpToByte(StringData s, size_t cp) {
    size_t i = 0, seen = 0;
    while (i < s.size() && seen < cp) {
        ++i;
        while (i < s.size() && isContinuationByte(static_cast<unsigned char>(s[i])))
            ++i;
        ++seen;
    }
    return i;
}

/** String form used by $concat-like coercions ($substr, $toLower...). */
std::string coerceToString(const Value& v, StringData op) {
    switch (v.getType()) {
        case BSONType::kString:
        case BSONType::kSymbol:
        case BSONType::kCode:
            return v.getString();
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
            return std::to_string(v.getLong());
        case BSONType::kNumberDouble: {
            std::string s = v.elem().toString(false);
            return s;
        }
        case BSONType::kNumberDecimal:
            return v.getDecimal().toString();
        case BSONType::kEOO:
        case BSONType::kNull:
        case BSONType::kUndefined:
            return "";
        case BSONType::kDate: {
            BSONObjBuilder b;
            b.append("", v.getDate());
            return b.obj().firstElement().toString(false);
        }
        default:
            uasserted(16007, "can't convert from BSON type " + typeNameOf(v) + " to String");
    }
}

Value concatFn(const ValueArgs& a) {
    size_t total = 0;
    for (const auto& v : a) {
        if (v.nullish())
            return Value::null();
        uassert(16702, "$concat only supports strings, not " + typeNameOf(v), v.isString());
        total += v.getStringData().size();
    }
    uassertStringFits(total);
    std::string out;
    out.reserve(total);
    for (const auto& v : a) {
        StringData s = v.getStringData();
        out.append(s.data(), s.size());
    }
    return Value(out);
}

Value substrBytesFn(const ValueArgs& a) {
    std::string s = coerceToString(a[0], "$substrBytes");
    uassert(16034,
            "$substrBytes: starting index must be a numeric type (is BSON type " +
                typeNameOf(a[1]) + ")",
            a[1].numeric());
    uassert(16035,
            "$substrBytes: length must be a numeric type (is BSON type " + typeNameOf(a[2]) + ")",
            a[2].numeric());
    long long start = a[1].getLong();
    long long len = a[2].getLong();
    if (start < 0 || static_cast<size_t>(start) >= s.size())
        return Value(StringData());
    uassert(28656, "$substrBytes:  Invalid range, starting index is a UTF-8 continuation byte.",
            !isContinuationByte(static_cast<unsigned char>(s[start])));
    // `len` may be anything a long holds: compare before adding so that nothing overflows.
    size_t end = (len < 0 || static_cast<unsigned long long>(len) >= s.size() - start)
                     ? s.size()
                     : static_cast<size_t>(start) + static_cast<size_t>(len);
    uassert(28657,
            "$substrBytes:  Invalid range, ending index is in the middle of a UTF-8 "
            "character.",
            end >= s.size() || !isContinuationByte(static_cast<unsigned char>(s[end])));
    return Value(StringData(s).substr(start, end - start));
}

Value substrCPFn(const ValueArgs& a) {
    std::string s = coerceToString(a[0], "$substrCP");
    uassert(
        34450,
        "$substrCP: starting index must be a numeric type (is BSON type " + typeNameOf(a[1]) + ")",
        a[1].numeric());
    uassert(34451, "$substrCP: starting index cannot be represented as a 32-bit integral value",
            a[1].integral());
    uassert(34452,
            "$substrCP: length must be a numeric type (is BSON type " + typeNameOf(a[2]) + ")",
            a[2].numeric());
    uassert(34453, "$substrCP: length cannot be represented as a 32-bit integral value",
            a[2].integral());
    long long start = a[1].getLong(), len = a[2].getLong();
    uassert(34454, "$substrCP: length must be a nonnegative integer.", len >= 0);
    uassert(34455, "$substrCP: the starting index must be nonnegative integer.", start >= 0);
    size_t b0 = cpToByte(s, start);
    size_t b1 = cpToByte(StringData(s).substr(b0), len) + b0;
    return Value(StringData(s).substr(b0, b1 - b0));
}

Value caseFn(const ValueArgs& a, bool upper) {
    std::string s = coerceToString(a[0], upper ? "$toUpper" : "$toLower");
    for (auto& c : s)
        c = static_cast<char>(upper ? std::toupper(static_cast<unsigned char>(c))
                                    : std::tolower(static_cast<unsigned char>(c)));
    return Value(s);
}

Value splitFn(const ValueArgs& a) {
    if (a[0].nullish() || a[1].nullish())
        return Value::null();
    uassert(40085,
            "$split requires an expression that evaluates to a string as a first argument, "
            "found: " +
                typeNameOf(a[0]),
            a[0].isString());
    uassert(40086,
            "$split requires an expression that evaluates to a string as a second "
            "argument, found: " +
                typeNameOf(a[1]),
            a[1].isString());
    StringData s = a[0].getStringData(), d = a[1].getStringData();
    uassert(40087, "$split requires a non-empty separator", !d.empty());
    BoundedArrayBuilder out("$split");
    size_t pos = 0;
    while (true) {
        size_t f = s.find(d, pos);
        if (f == StringData::npos) {
            out.append(Value(s.substr(pos)));
            break;
        }
        out.append(Value(s.substr(pos, f - pos)));
        pos = f + d.size();
    }
    return out.done();
}

Value strcasecmpFn(const ValueArgs& a) {
    std::string l = coerceToString(a[0], "$strcasecmp"), r = coerceToString(a[1], "$strcasecmp");
    for (auto& c : l)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (auto& c : r)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    int c = l.compare(r);
    return Value(c < 0 ? -1 : (c > 0 ? 1 : 0));
}

Value indexOfFn(const ValueArgs& a, bool cp) {
    StringData op = cp ? "$indexOfCP" : "$indexOfBytes";
    if (a[0].nullish())
        return Value::null();
    uassert(
        40091,
        std::string(op) + " requires a string as the first argument, found: " + typeNameOf(a[0]),
        a[0].isString());
    uassert(
        40092,
        std::string(op) + " requires a string as the second argument, found: " + typeNameOf(a[1]),
        a[1].isString());
    StringData s = a[0].getStringData(), t = a[1].getStringData();
    long long len = cp ? static_cast<long long>(utf8Length(s)) : static_cast<long long>(s.size());
    long long start = 0, end = len;
    if (a.size() > 2) {
        uassert(40096,
                std::string(op) +
                    " requires an integral starting index, found a value of "
                    "type: " +
                    typeNameOf(a[2]),
                a[2].integral());
        start = a[2].getLong();
        uassert(40097,
                std::string(op) +
                    " requires a nonnegative start index, found: " + std::to_string(start),
                start >= 0);
    }
    if (a.size() > 3) {
        uassert(40096,
                std::string(op) +
                    " requires an integral ending index, found a value of "
                    "type: " +
                    typeNameOf(a[3]),
                a[3].integral());
        end = std::min(len, a[3].getLong());
        uassert(40097,
                std::string(op) + " requires a nonnegative ending index, found: " +
                    std::to_string(a[3].getLong()),
                a[3].getLong() >= 0);
    }
    if (start > end || start > len)
        return Value(-1);
    if (!cp) {
        size_t f = s.substr(0, end).find(t, start);
        return Value(f == StringData::npos ? -1 : static_cast<int>(f));
    }
    size_t bStart = cpToByte(s, start), bEnd = cpToByte(s, end);
    size_t f = s.substr(0, bEnd).find(t, bStart);
    if (f == StringData::npos)
        return Value(-1);
    return Value(static_cast<int>(utf8Length(s.substr(0, f))));
}

ExprPtr makeCustom(StringData name, const BSONElement& e, ExprVector children,
                   ExpressionCustom::Fn fn) {
    BSONObjBuilder b;
    b.appendAs(e, name);
    return std::make_unique<ExpressionCustom>(std::string(name), b.obj(), std::move(children),
                                              std::move(fn));
}

/** Parses {k1: expr, ...} with required/allowed names into a fixed order. */
std::vector<const Expression*> parseNamedArgs(ExpressionContext* expCtx, const BSONElement& e,
                                              const VariablesParseState& vps, StringData op,
                                              const std::vector<StringData>& names, size_t required,
                                              ExprVector* owned, int notObjectCode, int unknownCode,
                                              int missingCode) {
    uassert(notObjectCode,
            std::string(op) +
                " expects an object of named arguments but found: " + typeNameOf(Value(e)),
            e.type() == BSONType::kObject);
    std::vector<const Expression*> out(names.size(), nullptr);
    for (auto f : e.Obj()) {
        size_t i = 0;
        while (i < names.size() && names[i] != f.fieldNameStringData())
            ++i;
        uassert(
            unknownCode,
            std::string(op) + " found an unknown argument: " + std::string(f.fieldNameStringData()),
            i < names.size());
        owned->push_back(Expression::parseOperand(expCtx, f, vps));
        out[i] = owned->back().get();
    }
    for (size_t i = 0; i < required; ++i)
        uassert(missingCode,
                std::string(op) + " requires '" + std::string(names[i]) + "' to be specified",
                out[i]);
    return out;
}

bool isTrimChar(unsigned char c, const std::string* chars) {
    if (chars)
        return chars->find(static_cast<char>(c)) != std::string::npos;
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == 0;
}

void registerTrim(StringData name, bool left, bool right) {
    std::string n(name);
    Expression::registerParser(
        name, [=](ExpressionContext* expCtx, const BSONElement& e, const VariablesParseState& vps) {
            ExprVector owned;
            auto args = parseNamedArgs(expCtx, e, vps, n, {"input", "chars"}, 1, &owned, 50696,
                                       50694, 50695);
            return makeCustom(n, e, std::move(owned), [=](const BSONObj& root, Variables* vars) {
                Value in = args[0]->evaluate(root, vars);
                if (in.nullish())
                    return Value::null();
                uassert(50699,
                        n + " requires its input to be a string, got " + in.toString() +
                            " (of type " + typeNameOf(in) + ") instead.",
                        in.isString());
                std::optional<std::string> chars;
                if (args[1]) {
                    Value c = args[1]->evaluate(root, vars);
                    if (c.nullish())
                        return Value::null();
                    uassert(50700,
                            n + " requires 'chars' to be a string, got " + c.toString() +
                                " (of type " + typeNameOf(c) + ") instead.",
                            c.isString());
                    chars = c.getString();
                }
                StringData s = in.getStringData();
                size_t b = 0, en = s.size();
                const std::string* cp = chars ? &*chars : nullptr;
                if (left)
                    while (b < en && isTrimChar(static_cast<unsigned char>(s[b]), cp))
                        ++b;
                if (right)
                    while (en > b && isTrimChar(static_cast<unsigned char>(s[en - 1]), cp))
                        --en;
                return Value(s.substr(b, en - b));
            });
        });
}

void registerReplace(StringData name, bool all) {
    std::string n(name);
    Expression::registerParser(name, [=](ExpressionContext* expCtx, const BSONElement& e,
                                         const VariablesParseState& vps) {
        ExprVector owned;
        auto args = parseNamedArgs(expCtx, e, vps, n, {"input", "find", "replacement"}, 3, &owned,
                                   51751, 51750, 51749);
        return makeCustom(n, e, std::move(owned), [=](const BSONObj& root, Variables* vars) {
            Value in = args[0]->evaluate(root, vars);
            Value find = args[1]->evaluate(root, vars);
            Value repl = args[2]->evaluate(root, vars);
            uassert(51746, n + " requires that 'input' be a string, found: " + in.toString(),
                    in.nullish() || in.isString());
            uassert(51745, n + " requires that 'find' be a string, found: " + find.toString(),
                    find.nullish() || find.isString());
            uassert(51744,
                    n + " requires that 'replacement' be a string, found: " + repl.toString(),
                    repl.nullish() || repl.isString());
            if (in.nullish() || find.nullish() || repl.nullish())
                return Value::null();
            StringData s = in.getStringData(), f = find.getStringData(), r = repl.getStringData();
            std::string out;
            size_t pos = 0;
            while (true) {
                size_t hit = s.find(f, pos);
                if (hit == StringData::npos || (f.empty() && hit > s.size())) {
                    out.append(s.data() + pos, s.size() - pos);
                    break;
                }
                uassertStringFits(out.size() + (hit - pos) + r.size());
                out.append(s.data() + pos, hit - pos);
                out.append(r.data(), r.size());
                if (f.empty()) {
                    if (hit < s.size())
                        out.push_back(s[hit]);
                    pos = hit + 1;
                    if (!all || pos > s.size()) {
                        if (pos <= s.size())
                            out.append(s.data() + pos, s.size() - pos);
                        break;
                    }
                    continue;
                }
                pos = hit + f.size();
                if (!all) {
                    out.append(s.data() + pos, s.size() - pos);
                    break;
                }
            }
            return Value(out);
        });
    });
}

// ---- regular expressions (PCRE2) ----

struct CompiledRegex {
    std::shared_ptr<pcre2_code> code;
    uint32_t captureCount = 0;
};

CompiledRegex compileRegex(StringData op, const std::string& pattern, const std::string& options) {
    uint32_t flags = PCRE2_UTF;
    for (char c : options) {
        switch (c) {
            case 'i':
                flags |= PCRE2_CASELESS;
                break;
            case 'm':
                flags |= PCRE2_MULTILINE;
                break;
            case 's':
                flags |= PCRE2_DOTALL;
                break;
            case 'x':
                flags |= PCRE2_EXTENDED;
                break;
            case 'u':
                break;
            default:
                uasserted(51108,
                          std::string(op) + " invalid flag in regex options: " + std::string(1, c));
        }
    }
    int err = 0;
    PCRE2_SIZE off = 0;
    pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                     flags, &err, &off, nullptr);
    uassert(51111, std::string(op) + ": Invalid Regex in regex: " + pattern, code);
    CompiledRegex r;
    r.code = std::shared_ptr<pcre2_code>(code, pcre2_code_free);
    pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &r.captureCount);
    return r;
}

enum class RegexMode { kMatch, kFind, kFindAll };

Value matchToObject(StringData s, PCRE2_SIZE* ov, uint32_t captures, size_t cpOffset) {
    BSONObjBuilder b;
    b.append("match", s.substr(ov[0], ov[1] - ov[0]));
    b.append("idx", static_cast<int>(cpOffset));
    BSONArrayBuilder caps(b.subarrayStart("captures"));
    for (uint32_t i = 1; i <= captures; ++i) {
        if (ov[2 * i] == PCRE2_UNSET)
            caps.append(BSONNULL);
        else
            caps.append(s.substr(ov[2 * i], ov[2 * i + 1] - ov[2 * i]));
    }
    caps.done();
    return Value(b.obj());
}

void registerRegex(StringData name, RegexMode mode) {
    std::string n(name);
    Expression::registerParser(name, [=](ExpressionContext* expCtx, const BSONElement& e,
                                         const VariablesParseState& vps) {
        ExprVector owned;
        auto args = parseNamedArgs(expCtx, e, vps, n, {"input", "regex", "options"}, 2, &owned,
                                   51103, 31024, 31022);
        return makeCustom(n, e, std::move(owned), [=](const BSONObj& root, Variables* vars) {
            Value in = args[0]->evaluate(root, vars);
            Value re = args[1]->evaluate(root, vars);
            Value optsV = args[2] ? args[2]->evaluate(root, vars) : Value();
            uassert(51104, n + " needs 'input' to be of type string",
                    in.nullish() || in.isString());
            std::string pattern, options;
            if (re.getType() == BSONType::kRegEx) {
                pattern = re.elem().regex();
                options = re.elem().regexFlags();
            } else {
                uassert(51105, n + " needs 'regex' to be of type string or regex",
                        re.nullish() || re.isString());
                if (!re.nullish())
                    pattern = re.getString();
            }
            if (!optsV.nullish()) {
                uassert(51106, n + " needs 'options' to be of type string", optsV.isString());
                uassert(51107,
                        n + " found regex option(s) specified in both 'regex' and 'option' "
                            "fields",
                        options.empty() || optsV.getStringData().empty());
                options = optsV.getString();
            }
            uassert(51109, n + ": regular expression cannot contain an embedded null byte",
                    pattern.find('\0') == std::string::npos);
            if (in.nullish() || re.nullish()) {
                if (mode == RegexMode::kMatch)
                    return Value(false);
                if (mode == RegexMode::kFind)
                    return Value::null();
                return Value(std::vector<Value>{});
            }
            CompiledRegex cr = compileRegex(n, pattern, options);
            StringData s = in.getStringData();
            std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> md(
                pcre2_match_data_create_from_pattern(cr.code.get(), nullptr),
                pcre2_match_data_free);
            BoundedArrayBuilder all("$regexFindAll");
            size_t start = 0;
            // Code-point offset of byte `cpBase` in `s`, advanced as matches move forward so
            // that finding all matches stays linear in the input.
            size_t cpBase = 0, cpOffset = 0;
            while (start <= s.size()) {
                vars->checkForInterruptEvery128();
                // PCRE2 checks the UTF-8 of the whole subject on each call unless told not
                // to: check it once, or finding all matches is quadratic in the input.
                int rc =
                    pcre2_match(cr.code.get(), reinterpret_cast<PCRE2_SPTR>(s.data()), s.size(),
                                start, start == 0 ? 0 : PCRE2_NO_UTF_CHECK, md.get(), nullptr);
                if (rc < 0)
                    break;
                PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md.get());
                if (mode == RegexMode::kMatch)
                    return Value(true);
                cpOffset += utf8Length(s.substr(cpBase, ov[0] - cpBase));
                cpBase = ov[0];
                Value m = matchToObject(s, ov, cr.captureCount, cpOffset);
                if (mode == RegexMode::kFind)
                    return m;
                all.append(m);
                start = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
                // After an empty match, step a whole character (PCRE2_NO_UTF_CHECK needs a
                // character boundary).
                while (start < s.size() && isContinuationByte(static_cast<unsigned char>(s[start])))
                    ++start;
            }
            if (mode == RegexMode::kMatch)
                return Value(false);
            if (mode == RegexMode::kFind)
                return Value::null();
            return all.done();
        });
    });
}

const bool kRegistered = [] {
    registerNaryExpression("$concat", 0, -1, concatFn);
    registerNaryExpression("$substrBytes", 3, 3, substrBytesFn);
    registerNaryExpression("$substr", 3, 3, substrBytesFn);
    registerNaryExpression("$substrCP", 3, 3, substrCPFn);
    registerNaryExpression("$toLower", 1, 1, [](const ValueArgs& a) { return caseFn(a, false); });
    registerNaryExpression("$toUpper", 1, 1, [](const ValueArgs& a) { return caseFn(a, true); });
    registerNaryExpression("$strLenBytes", 1, 1, [](const ValueArgs& a) {
        uassert(34473, "$strLenBytes requires a string argument, found: " + typeNameOf(a[0]),
                a[0].isString());
        return Value(static_cast<int>(a[0].getStringData().size()));
    });
    registerNaryExpression("$strLenCP", 1, 1, [](const ValueArgs& a) {
        uassert(34471, "$strLenCP requires a string argument, found: " + typeNameOf(a[0]),
                a[0].isString());
        return Value(static_cast<int>(utf8Length(a[0].getStringData())));
    });
    registerNaryExpression("$split", 2, 2, splitFn);
    registerNaryExpression("$strcasecmp", 2, 2, strcasecmpFn);
    registerNaryExpression("$indexOfBytes", 2, 4,
                           [](const ValueArgs& a) { return indexOfFn(a, false); });
    registerNaryExpression("$indexOfCP", 2, 4,
                           [](const ValueArgs& a) { return indexOfFn(a, true); });
    registerTrim("$trim", true, true);
    registerTrim("$ltrim", true, false);
    registerTrim("$rtrim", false, true);
    registerReplace("$replaceOne", false);
    registerReplace("$replaceAll", true);
    registerRegex("$regexMatch", RegexMode::kMatch);
    registerRegex("$regexFind", RegexMode::kFind);
    registerRegex("$regexFindAll", RegexMode::kFindAll);
    return true;
}();

}  // namespace
}  // namespace mongo
