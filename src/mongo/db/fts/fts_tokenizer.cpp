#include "mongo/db/fts/fts_tokenizer.h"

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>

#include "mongo/db/fts/fts_language.h"

namespace mongo {
namespace fts {

namespace {

constexpr UChar32 kInvalid = -1;

bool isDelimiter(UChar32 c, bool basic) {
    if (c < 0)
        return true;
    if (c < 0x80) {  // ASCII: letters, digits and '_' make words
        return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_');
    }
    if (basic)  // versions 1 and 2: every other code point is part of a word
        return false;
    return u_hasBinaryProperty(c, UCHAR_WHITE_SPACE) || u_hasBinaryProperty(c, UCHAR_DASH) ||
           u_hasBinaryProperty(c, UCHAR_HYPHEN) || u_hasBinaryProperty(c, UCHAR_QUOTATION_MARK) ||
           u_hasBinaryProperty(c, UCHAR_TERMINAL_PUNCTUATION) ||
           u_hasBinaryProperty(c, UCHAR_PATTERN_SYNTAX);
}

/** The code point at `*i` of `s` (kInvalid for a malformed sequence); advances `*i`. */
UChar32 nextCodePoint(StringData s, int32_t* i) {
    UChar32 c;
    U8_NEXT(reinterpret_cast<const uint8_t*>(s.data()), *i, static_cast<int32_t>(s.size()), c);
    return c < 0 ? kInvalid : c;
}

UChar32 foldCase(UChar32 c, const FTSLanguage& language) {
    if (language.isTurkish()) {
        if (c == 'I')
            return 0x0131;  // dotless i
        if (c == 0x0130)
            return 'i';
    }
    return u_foldCase(c, U_FOLD_CASE_DEFAULT);
}

void appendUtf16(UChar32 c, std::u16string* out) {
    UChar buf[2];
    int32_t n = 0;
    UBool err = false;
    U16_APPEND(buf, n, 2, c, err);
    out->append(buf, buf + n);
}

void appendUtf8(UChar32 c, std::string* out) {
    char buf[4];
    int32_t n = 0;
    UBool error = false;
    U8_APPEND(reinterpret_cast<uint8_t*>(buf), n, 4, c, error);
    if (!error)
        out->append(buf, n);
}

/** `in` normalised by `norm` into `*out`; false on an ICU error. */
bool normalize(const UNormalizer2* norm, const std::u16string& in, std::u16string* out) {
    UErrorCode status = U_ZERO_ERROR;
    out->assign(in.size() * 2 + 8, u'\0');
    int32_t len = unorm2_normalize(norm, in.data(), static_cast<int32_t>(in.size()), out->data(),
                                   static_cast<int32_t>(out->size()), &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) {
        status = U_ZERO_ERROR;
        out->assign(len, u'\0');
        len = unorm2_normalize(norm, in.data(), static_cast<int32_t>(in.size()), out->data(),
                               static_cast<int32_t>(out->size()), &status);
    }
    if (U_FAILURE(status))
        return false;
    out->resize(len);
    return true;
}

/** `s` with combining marks removed: NFD, drop Mn and Diacritic code points, NFC. */
std::string removeDiacritics(StringData s) {
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2* nfd = unorm2_getNFDInstance(&status);
    const UNormalizer2* nfc = unorm2_getNFCInstance(&status);
    if (U_FAILURE(status))
        return std::string(s);
    std::u16string in;
    for (int32_t i = 0; i < static_cast<int32_t>(s.size());) {
        UChar32 c = nextCodePoint(s, &i);
        if (c == kInvalid)
            continue;
        appendUtf16(c, &in);
    }
    std::u16string decomposed;
    if (!normalize(nfd, in, &decomposed))
        return std::string(s);
    const int32_t len = static_cast<int32_t>(decomposed.size());
    std::u16string kept;
    for (int32_t i = 0; i < len;) {
        UChar32 c;
        U16_NEXT(decomposed.data(), i, len, c);
        if (u_charType(c) == U_NON_SPACING_MARK || u_hasBinaryProperty(c, UCHAR_DIACRITIC))
            continue;
        appendUtf16(c, &kept);
    }
    std::u16string composed;
    if (!normalize(nfc, kept, &composed))
        return std::string(s);
    std::string out;
    for (int32_t i = 0, m = static_cast<int32_t>(composed.size()); i < m;) {
        UChar32 c;
        U16_NEXT(composed.data(), i, m, c);
        appendUtf8(c, &out);
    }
    return out;
}

std::string fold(StringData s, const FTSLanguage& language, FoldOptions options) {
    bool ascii = true;
    for (char ch : s)
        ascii = ascii && static_cast<unsigned char>(ch) < 0x80;
    if (options.basic || (ascii && !(language.isTurkish() && !options.caseSensitive))) {
        std::string out(s);
        if (!options.caseSensitive)
            for (char& ch : out)
                if (ch >= 'A' && ch <= 'Z')
                    ch = static_cast<char>(ch - 'A' + 'a');
        return out;
    }
    std::string out;
    out.reserve(s.size());
    for (int32_t i = 0; i < static_cast<int32_t>(s.size());) {
        UChar32 c = nextCodePoint(s, &i);
        if (c == kInvalid)
            continue;
        appendUtf8(options.caseSensitive ? c : foldCase(c, language), &out);
    }
    return options.diacriticSensitive ? out : removeDiacritics(out);
}

}  // namespace

std::vector<Token> tokenize(StringData text, const FTSLanguage& language, FoldOptions options) {
    std::vector<Token> tokens;
    const int32_t n = static_cast<int32_t>(text.size());
    int32_t i = 0;
    int32_t start = -1;  // start of the current word
    UChar32 prev = kInvalid;
    auto endWord = [&](int32_t end) {
        if (start >= 0 && end > start) {
            Token t;
            t.raw = std::string(text.substr(start, end - start));
            t.folded = fold(t.raw, language, options);
            t.offset = static_cast<size_t>(start);
            if (!t.folded.empty())
                tokens.push_back(std::move(t));
        }
        start = -1;
    };
    while (i < n) {
        const int32_t at = i;
        UChar32 c = nextCodePoint(text, &i);
        bool delimiter = isDelimiter(c, options.basic);
        if (c == '\'' && language.isEnglish() && start >= 0 && !isDelimiter(prev, options.basic)) {
            // Part of the word only if a letter follows ("don't"; not "dogs' ").
            int32_t j = i;
            delimiter = j >= n || isDelimiter(nextCodePoint(text, &j), options.basic);
        }
        if (delimiter)
            endWord(at);
        else if (start < 0)
            start = at;
        prev = c;
    }
    endWord(n);
    return tokens;
}

std::string foldText(StringData text, const FTSLanguage& language, FoldOptions options) {
    return fold(text, language, options);
}

}  // namespace fts
}  // namespace mongo
