// The spec of a text index: which fields are text and their weights, the default language
// and the per-document language override, the compound prefix/suffix fields, and from them the
// index keys of a document (one per distinct term, with the term's score). Formats in
// README.md. Thread safety: an FTSSpec is immutable after make().
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/fts/fts_language.h"

namespace mongo {
namespace fts {

/** Score of each term of a document (stemmed, folded term -> score). */
using TermScores = std::map<std::string, double>;

class FTSSpec {
public:
    static constexpr StringData kFtsField = "_fts";
    static constexpr StringData kFtsxField = "_ftsx";
    static constexpr StringData kWildcard = "$**";
    static constexpr StringData kWeights = "weights";
    static constexpr StringData kDefaultLanguage = "default_language";
    static constexpr StringData kLanguageOverride = "language_override";
    static constexpr StringData kTextIndexVersion = "textIndexVersion";
    static constexpr double kMaxWeight = 100000;  // weights lie in (0, kMaxWeight)
    static constexpr size_t kMaxKeysPerDocument = 400000;

    /** Whether index key pattern `key` is a text index's, as given ("text") or stored (_fts). */
    static bool isTextKeyPattern(const BSONObj& key);

    /**
     * The normal form of a createIndexes spec of a text index: key {<prefix>.., _fts: "text",
     * _ftsx: 1, <suffix>..}, then weights (by field name), default_language ("english"),
     * language_override ("language") and textIndexVersion (3) explicit. Idempotent.
     * Errors: CannotCreateIndex 67 (text fields not adjacent, bad weights, bad field names),
     * BadValue 2 (unsupported default_language), 17364 (textIndexVersion other than 2 or 3).
     */
    static StatusWith<BSONObj> fixSpec(const BSONObj& spec);

    /** The spec of stored (fixed) index spec `spec`; fixSpec()'s errors for others. */
    static StatusWith<std::shared_ptr<const FTSSpec>> make(const BSONObj& spec);

    /** The index term of `term`: itself up to 64 bytes, else its first 32 bytes + md5 hex. */
    static std::string indexTerm(const std::string& term);

    TextIndexVersion version() const {
        return _version;
    }
    const FTSLanguage& defaultLanguage() const {
        return *_defaultLanguage;
    }
    const std::string& languageOverrideField() const {
        return _languageOverride;
    }
    bool wildcard() const {
        return _wildcard;
    }
    /** Weight of each text field (dotted path; "$**" for the wildcard). */
    const std::map<std::string, double>& weights() const {
        return _weights;
    }
    const std::vector<std::string>& prefixFields() const {
        return _prefix;
    }
    const std::vector<std::string>& suffixFields() const {
        return _suffix;
    }

    /**
     * Calls `fn(text, language, weight)` for each string of `doc` this index indexes, with the
     * language of its nearest enclosing (sub)document. Errors: 17261 (language override
     * field not a string), 17262 (unsupported language in the override field).
     */
    Status forEachIndexedString(
        const BSONObj& doc,
        const std::function<void(StringData, const FTSLanguage&, double)>& fn) const;

    /**
     * Adds each term of `doc` with its score to `*scores`. Per string: score(term) = weight *
     * freq * (0.5 * count / words + 0.5) * (1.1 if the string is the term), freq = sum of
     * 1/2^k over the term's k-th occurrence. forEachIndexedString()'s errors.
     */
    Status scoreDocument(const BSONObj& doc, TermScores* scores) const;

    /**
     * The index keys of `doc`: {"": <prefix values>.., "": term, "": score, "": <suffix
     * values>..} per term; none when it has no term (text indexes are sparse). Errors:
     * CannotBuildIndexKeys 201 (a prefix or suffix value is an array), 16732 (too many keys),
     * scoreDocument()'s.
     */
    Status getKeys(const BSONObj& doc, std::vector<BSONObj>* keys) const;

private:
    FTSSpec() = default;
    /** The weight of text at `path` (dotted), or 0 when it is not indexed. */
    double _weightOf(const std::string& path) const;
    /** Whether some weighted path lies under `path` (so its subdocuments are walked). */
    bool _walksInto(const std::string& path) const;
    Status _walk(const BSONObj& obj, const std::string& prefix, const FTSLanguage& language,
                 const std::function<void(StringData, const FTSLanguage&, double)>& fn,
                 int depth) const;
    Status _walkValue(const BSONElement& e, const std::string& path, const FTSLanguage& language,
                      const std::function<void(StringData, const FTSLanguage&, double)>& fn,
                      int depth) const;

    TextIndexVersion _version = TextIndexVersion::kV3;
    const FTSLanguage* _defaultLanguage = nullptr;
    std::string _languageOverride;
    bool _wildcard = false;
    std::map<std::string, double> _weights;
    std::vector<std::string> _prefix;
    std::vector<std::string> _suffix;
};

}  // namespace fts
}  // namespace mongo
