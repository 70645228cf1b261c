#include "mongo/db/fts/fts_query.h"

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace fts {

namespace {

enum class CharClass { kText, kSpace, kDelimiter };

/** The query lexer's classes: ASCII white space and punctuation; everything else is text. */
CharClass classOf(char c) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80)
        return CharClass::kText;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')
        return CharClass::kSpace;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
        return CharClass::kText;
    return CharClass::kDelimiter;
}

template <typename Container>
void appendStrings(BSONObjBuilder* b, StringData name, const Container& strings) {
    BSONArrayBuilder a(b->subarrayStart(name));
    for (const auto& s : strings)
        a.append(s);
    a.done();
}

}  // namespace

StatusWith<FTSQuery> FTSQuery::parse(StringData search, StringData language, bool caseSensitive,
                                     bool diacriticSensitive, const FTSLanguage& defaultLanguage,
                                     TextIndexVersion version) {
    FTSQuery q;
    q._language = &defaultLanguage;
    if (!language.empty()) {
        auto l = FTSLanguage::make(language, version);
        if (!l.isOK())
            return l.getStatus();
        q._language = l.getValue();
    }
    q._fold = FoldOptions{caseSensitive, diacriticSensitive, version != TextIndexVersion::kV3};

    bool inPhrase = false, inNegation = false;
    size_t phraseStart = 0;
    CharClass previous = CharClass::kSpace;  // the start counts as white space
    for (size_t i = 0; i < search.size();) {
        const CharClass cls = classOf(search[i]);
        if (cls == CharClass::kText) {
            size_t end = i;
            while (end < search.size() && classOf(search[end]) == CharClass::kText)
                ++end;
            // Words inside a negated phrase only make up the phrase.
            if (!(inPhrase && inNegation))
                q._addTerms(search.substr(i, end - i), inNegation && !inPhrase);
            if (inNegation && !inPhrase)
                inNegation = false;
            i = end;
            previous = cls;
            continue;
        }
        if (cls == CharClass::kDelimiter) {
            const char c = search[i];
            if (c == '-' && !inPhrase && previous == CharClass::kSpace) {
                inNegation = true;
            } else if (c == '"') {
                if (inPhrase) {
                    std::string phrase = foldText(search.substr(phraseStart, i - phraseStart),
                                                  *q._language, q._fold);
                    (inNegation ? q._negatedPhrases : q._positivePhrases)
                        .push_back(std::move(phrase));
                    inNegation = false;
                    inPhrase = false;
                } else {
                    inPhrase = true;
                    phraseStart = i + 1;
                }
            } else if (!inPhrase) {
                inNegation = false;
            }
        } else if (!inPhrase) {
            inNegation = false;
        }
        previous = cls;
        ++i;
    }
    // An unterminated phrase is no phrase; its words were added as terms already.
    return q;
}

void FTSQuery::_addTerms(StringData text, bool negated) {
    for (const Token& t : tokenize(text, *_language, _fold)) {
        const bool sensitive = _fold.caseSensitive || _fold.diacriticSensitive;
        const std::string insensitive =
            sensitive ? foldText(t.raw, *_language, FoldOptions{false, false, _fold.basic})
                      : t.folded;
        if (_language->isStopWord(insensitive))
            continue;
        const std::string term = _language->stem(t.folded);
        if (negated) {
            _negatedTerms.insert(term);
        } else {
            _positiveTerms.insert(term);
            _termsForBounds.insert(sensitive ? _language->stem(insensitive) : term);
        }
    }
}

BSONObj FTSQuery::toExplainBSON() const {
    BSONObjBuilder b;
    appendStrings(&b, "terms", _positiveTerms);
    appendStrings(&b, "negatedTerms", _negatedTerms);
    appendStrings(&b, "phrases", _positivePhrases);
    appendStrings(&b, "negatedPhrases", _negatedPhrases);
    return b.obj();
}

}  // namespace fts
}  // namespace mongo
