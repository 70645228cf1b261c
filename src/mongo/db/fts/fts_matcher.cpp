#include "mongo/db/fts/fts_matcher.h"

#include "mongo/db/fts/fts_tokenizer.h"

namespace mongo {
namespace fts {

FTSMatcher::FTSMatcher(FTSQuery query, std::shared_ptr<const FTSSpec> spec)
    : _query(std::move(query)), _spec(std::move(spec)) {}

bool FTSMatcher::hasNegationsOrPhrasesOrSensitivity() const {
    const FoldOptions f = _query.foldOptions();
    return !_query.negatedTerms().empty() || !_query.positivePhrases().empty() ||
           !_query.negatedPhrases().empty() || f.caseSensitive || f.diacriticSensitive;
}

bool FTSMatcher::_hasTerm(const BSONObj& doc, const std::set<std::string>& terms) const {
    if (terms.empty())
        return false;
    bool found = false;
    const FoldOptions fold = _query.foldOptions();
    Status s =
        _spec->forEachIndexedString(doc, [&](StringData text, const FTSLanguage& language, double) {
            if (found)
                return;
            for (const Token& t : tokenize(text, language, fold)) {
                if (terms.count(language.stem(t.folded))) {
                    found = true;
                    return;
                }
            }
        });
    return s.isOK() && found;
}

bool FTSMatcher::_hasPhrase(const BSONObj& doc, const std::string& phrase) const {
    bool found = false;
    const FoldOptions fold = _query.foldOptions();
    Status s = _spec->forEachIndexedString(doc, [&](StringData text, const FTSLanguage&, double) {
        if (!found)
            found = foldText(text, _query.language(), fold).find(phrase) != std::string::npos;
    });
    return s.isOK() && found;
}

bool FTSMatcher::matches(const BSONObj& doc) const {
    const FoldOptions f = _query.foldOptions();
    if ((f.caseSensitive || f.diacriticSensitive) && !_hasTerm(doc, _query.positiveTerms()))
        return false;
    if (_hasTerm(doc, _query.negatedTerms()))
        return false;
    for (const auto& phrase : _query.positivePhrases())
        if (!_hasPhrase(doc, phrase))
            return false;
    for (const auto& phrase : _query.negatedPhrases())
        if (_hasPhrase(doc, phrase))
            return false;
    return true;
}

}  // namespace fts
}  // namespace mongo
