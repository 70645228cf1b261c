// Whether a document satisfies a $text query beyond what the text index shows: the index finds
// documents with a positive term (case- and diacritic-insensitively); this checks the query's
// case/diacritic sensitivity, negated terms and phrases against the indexed strings.
// Thread safety: immutable.
#pragma once

#include <memory>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/fts/fts_query.h"
#include "mongo/db/fts/fts_spec.h"

namespace mongo {
namespace fts {

class FTSMatcher {
public:
    FTSMatcher(FTSQuery query, std::shared_ptr<const FTSSpec> spec);

    /**
     * Whether `doc` (one the index found for a positive term) matches: with sensitivity, some
     * positive term occurs as written; no negated term occurs; every positive phrase and no
     * negated phrase occurs in some indexed string. A document whose language override is
     * invalid does not match. O(size of the indexed strings).
     */
    bool matches(const BSONObj& doc) const;

    /** Whether matches() can be false for a document the index found. */
    bool hasNegationsOrPhrasesOrSensitivity() const;

    const FTSQuery& query() const {
        return _query;
    }
    const FTSSpec& spec() const {
        return *_spec;
    }

private:
    /** Whether some indexed string of `doc` has a word whose stem is in `terms`. */
    bool _hasTerm(const BSONObj& doc, const std::set<std::string>& terms) const;
    /** Whether some indexed string of `doc` contains `phrase` (both folded alike). */
    bool _hasPhrase(const BSONObj& doc, const std::string& phrase) const;

    FTSQuery _query;
    std::shared_ptr<const FTSSpec> _spec;
};

}  // namespace fts
}  // namespace mongo
