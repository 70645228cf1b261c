#include "mongo/db/fts/fts_language.h"

#include <libstemmer.h>

#include <array>
#include <memory>
#include <mutex>

#include <absl/container/flat_hash_map.h>
#include <absl/strings/ascii.h>

#include "mongo/db/fts/stop_words.h"

namespace mongo {
namespace fts {

namespace {

struct LanguageName {
    const char* name;
    const char* code;  // ISO 639-1
};

constexpr std::array<LanguageName, 15> kStemmed = {{
    {"danish", "da"},
    {"dutch", "nl"},
    {"english", "en"},
    {"finnish", "fi"},
    {"french", "fr"},
    {"german", "de"},
    {"hungarian", "hu"},
    {"italian", "it"},
    {"norwegian", "nb"},
    {"portuguese", "pt"},
    {"romanian", "ro"},
    {"russian", "ru"},
    {"spanish", "es"},
    {"swedish", "sv"},
    {"turkish", "tr"},
}};

/** Every language by its lower-case name and code; built once (function-local static). */
const absl::flat_hash_map<std::string, std::unique_ptr<FTSLanguage>>& languages() {
    static const auto* table = [] {
        auto* t = new absl::flat_hash_map<std::string, std::unique_ptr<FTSLanguage>>();
        for (const auto& l : kStemmed) {
            (*t)[l.name] = std::make_unique<FTSLanguage>(l.name, l.name, stopWordsFor(l.name));
            (*t)[l.code] = std::make_unique<FTSLanguage>(l.name, l.name, stopWordsFor(l.name));
        }
        (*t)["none"] = std::make_unique<FTSLanguage>("none", "", nullptr);
        return t;
    }();
    return *table;
}

struct StemmerDeleter {
    void operator()(sb_stemmer* s) const {
        sb_stemmer_delete(s);
    }
};

/**
 * textIndexVersion 1 also takes the other names libstemmer knows its algorithms by ("eng",
 * "fre", ...), with stemming but without stop words (the stop lists know only the names
 * above). Made on first use and kept for the process.
 */
const FTSLanguage* stemmerAlias(const std::string& lower) {
    static std::mutex mutex;
    static auto* aliases = new absl::flat_hash_map<std::string, std::unique_ptr<FTSLanguage>>();
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = aliases->find(lower); it != aliases->end())
        return it->second.get();
    if (lower.size() > 32)
        return nullptr;
    std::unique_ptr<sb_stemmer, StemmerDeleter> probe(sb_stemmer_new(lower.c_str(), "UTF_8"));
    if (!probe)
        return nullptr;
    auto& slot = (*aliases)[lower];
    slot = std::make_unique<FTSLanguage>(lower, lower, nullptr);
    return slot.get();
}

}  // namespace

FTSLanguage::FTSLanguage(std::string name, std::string stemmer, const char* const* stopWords)
    : _name(std::move(name)), _stemmer(std::move(stemmer)) {
    for (auto* w = stopWords; w && *w; ++w)
        _stopWords.insert(*w);
}

StatusWith<const FTSLanguage*> FTSLanguage::make(StringData name, TextIndexVersion version) {
    const std::string lower = absl::AsciiStrToLower(toAbsl(name));
    const auto& table = languages();
    auto it = table.find(lower);
    if (it != table.end())
        return it->second.get();
    if (version == TextIndexVersion::kV1)
        if (const FTSLanguage* alias = stemmerAlias(lower))
            return alias;
    return Status(ErrorCodes::BadValue, "unsupported language: \"" + std::string(name) +
                                            "\" for text index version " +
                                            std::to_string(static_cast<int>(version)));
}

bool FTSLanguage::isStopWord(StringData word) const {
    return _stopWords.contains(std::string(word));
}

std::string FTSLanguage::stem(StringData word) const {
    if (_stemmer.empty() || word.empty())
        return std::string(word);
    // A libstemmer stemmer is not thread-safe: each thread keeps its own per language.
    thread_local absl::flat_hash_map<std::string, std::unique_ptr<sb_stemmer, StemmerDeleter>>
        stemmers;
    auto& s = stemmers[_stemmer];
    if (!s)
        s.reset(sb_stemmer_new(_stemmer.c_str(), "UTF_8"));
    if (!s)
        return std::string(word);
    const sb_symbol* out = sb_stemmer_stem(s.get(), reinterpret_cast<const sb_symbol*>(word.data()),
                                           static_cast<int>(word.size()));
    if (!out)  // out of memory inside libstemmer: index the word unstemmed
        return std::string(word);
    return std::string(reinterpret_cast<const char*>(out), sb_stemmer_length(s.get()));
}

}  // namespace fts
}  // namespace mongo
