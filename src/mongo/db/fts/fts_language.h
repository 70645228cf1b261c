// The languages of text indexes and $text queries: their names, stop words and stemmers
// (Snowball, through libstemmer). A language is a process-wide constant; "none" has neither
// stop words nor stemming. Thread safety: all members are const; stem() keeps one stemmer per
// thread and language.
#pragma once

#include <string>

#include <absl/container/flat_hash_set.h>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"

namespace mongo {
namespace fts {

/**
 * The textIndexVersion of a text index. Version 3 folds case and diacritics with Unicode rules;
 * 1 and 2 split words at ASCII delimiters only and fold ASCII case only (FoldOptions::basic);
 * 1 also ignores the language of embedded documents and takes libstemmer's language aliases.
 */
enum class TextIndexVersion { kV1 = 1, kV2 = 2, kV3 = 3 };

class FTSLanguage {
public:
    /**
     * The language named `name` (a name such as "english" or an ISO 639-1 code such as "en",
     * either case; under version 1 also libstemmer's other names for its algorithms, such as
     * "eng"). Returns a pointer to a process-wide constant. BadValue
     * `unsupported language: "<name>" for text index version <v>` for any other string.
     */
    static StatusWith<const FTSLanguage*> make(StringData name, TextIndexVersion version);

    /** The canonical (lower-case, full) name, e.g. "english" for "EN". */
    const std::string& str() const {
        return _name;
    }
    /** Whether `word` (case-folded, diacritics removed) is a stop word of the language. */
    bool isStopWord(StringData word) const;
    /** The Snowball stem of `word` (UTF-8); `word` itself for "none". */
    std::string stem(StringData word) const;
    /** Turkish folds I to ı and İ to i. */
    bool isTurkish() const {
        return _name == "turkish";
    }
    /** English keeps the apostrophe inside words ("don't" is one token). */
    bool isEnglish() const {
        return _name == "english";
    }

    /** `stopWords`: null-terminated list (null: none); `stemmer`: "" for no stemming. */
    FTSLanguage(std::string name, std::string stemmer, const char* const* stopWords);

private:
    std::string _name;
    std::string _stemmer;  // libstemmer algorithm name; empty: no stemming
    absl::flat_hash_set<std::string> _stopWords;
};

}  // namespace fts
}  // namespace mongo
