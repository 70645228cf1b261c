#include "mongo/db/fts/fts_spec.h"

#include <openssl/evp.h>

#include <cmath>

#include <absl/strings/ascii.h>
#include <absl/strings/match.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/fts/fts_tokenizer.h"

namespace mongo {
namespace fts {

namespace {

constexpr StringData kKey = "key";
constexpr StringData kText = "text";
constexpr StringData kDefaultLanguageName = "english";
constexpr StringData kDefaultOverride = "language";
constexpr int kMaxDepth = 200;
constexpr size_t kMaxKeyBytes = 64 * 1024 * 1024;

bool isTextValue(const BSONElement& e) {
    return e.type() == BSONType::kString && e.valueStringData() == kText;
}

Status cannotCreate(std::string msg) {
    return Status(ErrorCodes::CannotCreateIndex, std::move(msg));
}

/** A field path usable as a weight or language override: no empty part, no leading '$'. */
bool isValidPath(StringData path) {
    if (path.empty())
        return false;
    size_t start = 0;
    while (true) {
        const size_t dot = path.find('.', start);
        StringData part =
            path.substr(start, dot == StringData::npos ? StringData::npos : dot - start);
        if (part.empty() || part[0] == '$')
            return false;
        if (dot == StringData::npos)
            return true;
        start = dot + 1;
    }
}

bool isArrayIndex(StringData part) {
    return !part.empty() &&
           std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/**
 * The value at dotted `path` of `doc` (EOO if absent); `*array` when the path meets an array
 * (other than one a numeric component of the path indexes, as "a.0").
 */
BSONElement valueAt(const BSONObj& doc, StringData path, bool* array) {
    BSONObj obj = doc;
    while (true) {
        const size_t dot = path.find('.');
        BSONElement e = obj.getField(path.substr(0, dot));
        if (e.type() == BSONType::kArray && dot != StringData::npos &&
            isArrayIndex(path.substr(dot + 1, path.find('.', dot + 1) - dot - 1))) {
            obj = e.embeddedObject();
            path = path.substr(dot + 1);
            continue;
        }
        if (e.type() == BSONType::kArray) {
            *array = true;
            return e;
        }
        if (dot == StringData::npos || e.eoo())
            return e;
        if (e.type() != BSONType::kObject)
            return BSONElement();
        obj = e.embeddedObject();
        path = path.substr(dot + 1);
    }
}

void appendWeight(BSONObjBuilder* b, const std::string& field, double w) {
    if (w == std::floor(w))
        b->append(field, static_cast<int>(w));
    else
        b->append(field, w);
}

}  // namespace

bool FTSSpec::isTextKeyPattern(const BSONObj& key) {
    for (BSONElement e : key)
        if (e.fieldNameStringData() == kFtsField || isTextValue(e))
            return true;
    return false;
}

StatusWith<BSONObj> FTSSpec::fixSpec(const BSONObj& spec) {
    const BSONElement keyElem = spec[kKey];
    if (keyElem.type() != BSONType::kObject)
        return cannotCreate("text index spec has no key object");
    enum class Part { kPrefix, kText, kSuffix } part = Part::kPrefix;
    std::map<std::string, double> weights;
    std::vector<BSONElement> prefix, suffix;
    for (BSONElement e : keyElem.embeddedObject()) {
        const std::string name = e.fieldName();
        const bool stored = name == kFtsField;
        if (name == kFtsxField)
            continue;
        if (stored || isTextValue(e)) {
            if (part == Part::kSuffix)
                return cannotCreate("'text' fields in index must all be adjacent");
            part = Part::kText;
            if (!stored && name != kWildcard && !isValidPath(name))
                return cannotCreate("text index key field name '" + name + "' is not valid");
            if (!stored)
                weights[name] = 1;
            continue;
        }
        if (e.type() == BSONType::kString)
            return cannotCreate("'text' index cannot be compound with index type '" + e.str() +
                                "'");
        if (!e.isNumber())
            return cannotCreate("text index key field '" + name + "' must be a number or \"text\"");
        if (e.numberDouble() != 1 && e.numberDouble() != -1)
            return cannotCreate("expected 1 or -1 for non-text key in compound index, found " +
                                e.toString(false) + " for '" + name + "'");
        (part == Part::kPrefix ? prefix : suffix).push_back(e);
        if (part == Part::kText)
            part = Part::kSuffix;
    }
    if (const BSONElement w = spec[kWeights]; !w.eoo()) {
        if (w.type() == BSONType::kString && w.valueStringData() == kWildcard)
            weights[std::string(kWildcard)] = 1;  // weights: "$**" is {"$**": 1}
        else if (w.type() != BSONType::kObject)
            return cannotCreate("text index option 'weights' must be an object or \"$**\"");
        for (BSONElement e : w.type() == BSONType::kObject ? w.embeddedObject() : BSONObj()) {
            const std::string name = e.fieldName();
            if (!e.isNumber())
                return cannotCreate("weight for text index needs numeric type");
            const double v = e.numberDouble();
            if (!(v > 0 && v < kMaxWeight))
                return cannotCreate(
                    "text index weight must be in the exclusive interval (0,100000) "
                    "but found: " +
                    e.toString(false));
            if (name != kWildcard && !isValidPath(name))
                return cannotCreate("text index weight field name '" + name + "' is not valid");
            weights[name] = v;
        }
    }
    if (weights.empty())
        return cannotCreate("text index must have at least one text field");

    TextIndexVersion version = TextIndexVersion::kV3;
    if (const BSONElement v = spec[kTextIndexVersion]; !v.eoo()) {
        const double n = v.isNumber() ? v.numberDouble() : 0;
        if (n != 1 && n != 2 && n != 3)
            return Status(ErrorCodes::Error(17364),
                          "Currently only textIndexVersion 1, 2 and 3 are supported, not " +
                              v.toString(false));
        version = static_cast<TextIndexVersion>(static_cast<int>(n));
    }
    std::string language(kDefaultLanguageName);
    if (const BSONElement l = spec[kDefaultLanguage]; !l.eoo()) {
        if (l.type() != BSONType::kString)
            return Status(ErrorCodes::BadValue, "default_language needs a string type");
        auto lang = FTSLanguage::make(l.valueStringData(), version);
        if (!lang.isOK())
            return cannotCreate(lang.getStatus().reason());
        language = l.str();
    }
    std::string languageOverride(kDefaultOverride);
    if (const BSONElement o = spec[kLanguageOverride]; !o.eoo()) {
        if (o.type() != BSONType::kString)
            return cannotCreate("language_override needs a string type");
        if (!isValidPath(o.valueStringData()))
            return cannotCreate("language_override is not valid: " + o.str());
        languageOverride = o.str();
    }

    BSONObjBuilder key;
    for (const auto& e : prefix)
        key.append(e);
    key.append(kFtsField, kText);
    key.append(kFtsxField, 1);
    for (const auto& e : suffix)
        key.append(e);
    BSONObjBuilder out;
    for (BSONElement e : spec) {
        const StringData name = e.fieldNameStringData();
        if (name == kKey)
            out.append(kKey, key.obj());
        else if (name != kWeights && name != kDefaultLanguage && name != kLanguageOverride &&
                 name != kTextIndexVersion)
            out.append(e);
    }
    BSONObjBuilder w(out.subobjStart(kWeights));
    for (const auto& [field, weight] : weights)
        appendWeight(&w, field, weight);
    w.done();
    out.append(kDefaultLanguage, language);
    out.append(kLanguageOverride, languageOverride);
    out.append(kTextIndexVersion, static_cast<int>(version));
    return out.obj();
}

StatusWith<std::shared_ptr<const FTSSpec>> FTSSpec::make(const BSONObj& given) {
    auto fixed = fixSpec(given);
    if (!fixed.isOK())
        return fixed.getStatus();
    const BSONObj& spec = fixed.getValue();
    std::shared_ptr<FTSSpec> s(new FTSSpec());
    s->_version = static_cast<TextIndexVersion>(spec[kTextIndexVersion].numberInt());
    s->_defaultLanguage =
        FTSLanguage::make(spec[kDefaultLanguage].valueStringData(), s->_version).getValue();
    s->_languageOverride = spec[kLanguageOverride].str();
    for (BSONElement e : spec[kWeights].embeddedObject())
        s->_weights[e.fieldName()] = e.numberDouble();
    s->_wildcard = s->_weights.count(std::string(kWildcard)) > 0;
    bool afterText = false;
    for (BSONElement e : spec[kKey].embeddedObject()) {
        const StringData name = e.fieldNameStringData();
        if (name == kFtsField || name == kFtsxField)
            afterText = true;
        else
            (afterText ? s->_suffix : s->_prefix).emplace_back(name);
    }
    return std::shared_ptr<const FTSSpec>(std::move(s));
}

std::string FTSSpec::indexTerm(const std::string& term) {
    constexpr size_t kMaxTerm = 64, kKeptPrefix = 32;
    if (term.size() <= kMaxTerm)
        return term;
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(term.data(), term.size(), digest, &len, EVP_md5(), nullptr);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = term.substr(0, kKeptPrefix);
    for (unsigned int i = 0; i < len; ++i) {
        out.push_back(kHex[digest[i] >> 4]);
        out.push_back(kHex[digest[i] & 0xf]);
    }
    return out;
}

double FTSSpec::_weightOf(const std::string& path) const {
    if (auto it = _weights.find(path); it != _weights.end())
        return it->second;
    if (_wildcard)
        return _weights.at(std::string(kWildcard));
    return 0;
}

bool FTSSpec::_walksInto(const std::string& path) const {
    if (_wildcard)
        return true;
    const std::string under = path + ".";
    for (auto it = _weights.lower_bound(under); it != _weights.end(); ++it)
        return absl::StartsWith(it->first, under);
    return false;
}

Status FTSSpec::forEachIndexedString(
    const BSONObj& doc,
    const std::function<void(StringData, const FTSLanguage&, double)>& fn) const {
    return _walk(doc, "", *_defaultLanguage, fn, 0);
}

Status FTSSpec::_walk(const BSONObj& obj, const std::string& prefix, const FTSLanguage& inherited,
                      const std::function<void(StringData, const FTSLanguage&, double)>& fn,
                      int depth) const {
    const FTSLanguage* language = &inherited;
    // Version 1 reads the language of the document only, not of its embedded documents.
    const bool overridable = _version != TextIndexVersion::kV1 || prefix.empty();
    if (const BSONElement o = obj.getField(_languageOverride); overridable && !o.eoo()) {
        if (o.type() != BSONType::kString)
            return Status(ErrorCodes::Error(17261),
                          "found language override field in document with non-string type");
        auto l = FTSLanguage::make(o.valueStringData(), _version);
        if (!l.isOK())
            return Status(ErrorCodes::Error(17262), "language override unsupported: " + o.str());
        language = l.getValue();
    }
    for (BSONElement e : obj) {
        if (overridable && e.fieldNameStringData() == _languageOverride)
            continue;
        Status s = _walkValue(e, prefix + e.fieldName(), *language, fn, depth + 1);
        if (!s.isOK())
            return s;
    }
    return Status::OK();
}

Status FTSSpec::_walkValue(const BSONElement& e, const std::string& path,
                           const FTSLanguage& language,
                           const std::function<void(StringData, const FTSLanguage&, double)>& fn,
                           int depth) const {
    if (depth > kMaxDepth)
        return Status::OK();
    switch (e.type()) {
        case BSONType::kString:
            if (const double w = _weightOf(path); w > 0)
                fn(e.valueStringData(), language, w);
            return Status::OK();
        case BSONType::kObject:
            if (_walksInto(path))
                return _walk(e.embeddedObject(), path + ".", language, fn, depth);
            return Status::OK();
        case BSONType::kArray:
            for (BSONElement item : e.embeddedObject()) {
                Status s = _walkValue(item, path, language, fn, depth + 1);
                if (!s.isOK())
                    return s;
            }
            return Status::OK();
        default:
            return Status::OK();
    }
}

Status FTSSpec::scoreDocument(const BSONObj& doc, TermScores* scores) const {
    struct Frequency {
        double freq = 0;   // sum of 1/2^k over occurrences
        double next = 1;   // weight of the next occurrence
        double count = 0;  // occurrences
    };
    return forEachIndexedString(doc, [&](StringData text, const FTSLanguage& language, double w) {
        std::map<std::string, Frequency> terms;
        double words = 0;
        for (const Token& t : tokenize(
                 text, language, FoldOptions{false, false, _version != TextIndexVersion::kV3})) {
            if (language.isStopWord(t.folded))
                continue;
            Frequency& f = terms[language.stem(t.folded)];
            f.freq += f.next;
            f.next /= 2;
            f.count += 1;
            words += 1;
        }
        for (const auto& [term, f] : terms) {
            const double coeff = 0.5 * f.count / words + 0.5;
            const double adjustment = absl::EqualsIgnoreCase(toAbsl(term), toAbsl(text)) ? 1.1 : 1;
            (*scores)[term] += w * f.freq * coeff * adjustment;
        }
    });
}

Status FTSSpec::getKeys(const BSONObj& doc, std::vector<BSONObj>* keys) const {
    BSONObjBuilder prefixB, suffixB;
    for (const auto& [fields, builder, what] :
         {std::tuple(&_prefix, &prefixB, "prefix"), std::tuple(&_suffix, &suffixB, "suffix")}) {
        for (const std::string& field : *fields) {
            bool array = false;
            BSONElement v = valueAt(doc, field, &array);
            if (array)
                return Status(ErrorCodes::CannotBuildIndexKeys,
                              "Field '" + field + "' of text index contains an array in " +
                                  "document: " + doc.toString() + " (the " + what +
                                  " fields of a text index cannot be multikey)");
            if (v.eoo())
                builder->appendNull("");
            else
                builder->appendAs(v, "");
        }
    }
    TermScores scores;
    Status s = scoreDocument(doc, &scores);
    if (!s.isOK())
        return s;
    if (scores.size() > kMaxKeysPerDocument)
        return Status(ErrorCodes::Error(16732),
                      "too many unique keys for a single document to have a text index, max is " +
                          std::to_string(kMaxKeysPerDocument));
    const BSONObj prefix = prefixB.obj(), suffix = suffixB.obj();
    size_t bytes = 0;
    for (const auto& [term, score] : scores) {
        BSONObjBuilder k;
        k.appendElements(prefix);
        k.append("", indexTerm(term));
        k.append("", score);
        k.appendElements(suffix);
        keys->push_back(k.obj());
        bytes += keys->back().objsize();
        if (bytes > kMaxKeyBytes)
            return Status(ErrorCodes::Error(16732), "text index keys of a single document exceed " +
                                                        std::to_string(kMaxKeyBytes) + " bytes");
    }
    return Status::OK();
}

}  // namespace fts
}  // namespace mongo
