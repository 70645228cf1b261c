// A parsed $text search string: its positive and negated terms (folded, stop words dropped,
// stemmed in the query's language), its positive and negated phrases, and the terms the index
// is scanned for. Syntax: words; "-word" negates a word and "-\"a phrase\"" a phrase (a '-'
// counts only at the start or after white space); "..." is a phrase, whose words are also
// positive terms. A query with no positive term matches nothing. Copyable, immutable.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/fts/fts_language.h"
#include "mongo/db/fts/fts_tokenizer.h"

namespace mongo {
namespace fts {

class FTSQuery {
public:
    /**
     * Parses `search`. `language` "" takes `defaultLanguage` (the index's). BadValue 2 for an
     * unsupported language.
     */
    static StatusWith<FTSQuery> parse(StringData search, StringData language, bool caseSensitive,
                                      bool diacriticSensitive, const FTSLanguage& defaultLanguage,
                                      TextIndexVersion version);

    const std::set<std::string>& positiveTerms() const {
        return _positiveTerms;
    }
    const std::set<std::string>& negatedTerms() const {
        return _negatedTerms;
    }
    const std::vector<std::string>& positivePhrases() const {
        return _positivePhrases;
    }
    const std::vector<std::string>& negatedPhrases() const {
        return _negatedPhrases;
    }
    /** The positive terms folded case- and diacritic-insensitively: what the index holds. */
    const std::set<std::string>& termsForBounds() const {
        return _termsForBounds;
    }
    const FTSLanguage& language() const {
        return *_language;
    }
    FoldOptions foldOptions() const {
        return _fold;
    }
    /** {terms, negatedTerms, phrases, negatedPhrases} (explain's parsedTextQuery). */
    BSONObj toExplainBSON() const;

private:
    /** Adds the words of `text` to the positive (or negated) terms. */
    void _addTerms(StringData text, bool negated);

    const FTSLanguage* _language = nullptr;
    FoldOptions _fold;
    std::set<std::string> _positiveTerms;
    std::set<std::string> _negatedTerms;
    std::vector<std::string> _positivePhrases;
    std::vector<std::string> _negatedPhrases;
    std::set<std::string> _termsForBounds;
};

}  // namespace fts
}  // namespace mongo
