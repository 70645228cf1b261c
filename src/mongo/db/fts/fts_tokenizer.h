// Splitting text into words for text indexes and $text: a word is a run of code points that
// are not delimiters (Unicode White_Space, Dash, Hyphen, Quotation_Mark, Terminal_Punctuation,
// Pattern_Syntax; English keeps an apostrophe between two letters). Folding lower-cases
// (simple case folding; Turkish dotted/dotless i) and removes diacritics (NFD, marks dropped),
// each unless the caller asks to keep it. Stop words and stemming are the caller's.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "mongo/base/string_data.h"

namespace mongo {
namespace fts {

class FTSLanguage;

struct FoldOptions {
    bool caseSensitive = false;       // keep case
    bool diacriticSensitive = false;  // keep diacritics
    /**
     * textIndexVersion 1 and 2: only ASCII characters other than letters, digits and '_'
     * delimit words, only ASCII letters are lower-cased, and diacritics are always kept.
     */
    bool basic = false;
};

struct Token {
    std::string raw;     // the word as written
    std::string folded;  // the word after folding
    size_t offset = 0;   // byte offset of `raw` in the text
};

/** The words of `text` (UTF-8; invalid bytes are delimiters), in order. O(text). */
std::vector<Token> tokenize(StringData text, const FTSLanguage& language, FoldOptions options);

/** `text` folded as a whole (delimiters kept), for phrase containment. */
std::string foldText(StringData text, const FTSLanguage& language, FoldOptions options);

}  // namespace fts
}  // namespace mongo
