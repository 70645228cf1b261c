// The stop words of each text-search language: words too common to index or search for.
// Lists are this project's own (lower case, diacritics removed, as the tokenizer folds them).
#pragma once

#include "mongo/base/string_data.h"

namespace mongo {
namespace fts {

/** The null-terminated stop word list of `language` (canonical name); null when it has none. */
const char* const* stopWordsFor(StringData language);

}  // namespace fts
}  // namespace mongo
