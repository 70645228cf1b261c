// CollatorICU: the CollatorInterface behind every non-simple collation, a
// configured ICU UCollator (built by makeCollator() in collator_factory.h, which
// also owns parsing and validation of the collation document).
//
// Thread safety: all const member functions may be called concurrently (ICU
// collators are safe for concurrent const use); an instance is never mutated after
// construction.
#pragma once

#include <memory>

#include "mongo/db/query/collation/collator_interface.h"

struct UCollator;

namespace mongo {

class CollatorICU final : public CollatorInterface {
public:
    struct UCollatorDeleter {
        void operator()(UCollator* c) const;
    };
    using UCollatorPtr = std::unique_ptr<UCollator, UCollatorDeleter>;

    /**
     * Takes ownership of `collator`, already configured as the full, normalised
     * `fullSpec` says (see README.md for the field order).
     */
    CollatorICU(BSONObj fullSpec, UCollatorPtr collator);

    /**
     * ICU's order of the two UTF-8 strings. Ill-formed UTF-8 is read as U+FFFD per
     * maximal ill-formed subsequence, identically here and in the comparison key.
     */
    int compare(StringData l, StringData r) const override;

    /**
     * Appends ICU's sort key of `s` without its terminating 0x00 byte; the key holds
     * no other 0x00 byte, so byte-wise order of keys equals compare(). O(len(s)).
     */
    void appendComparisonKey(StringData s, std::string* out) const override;

    std::unique_ptr<CollatorInterface> clone() const override;

    const UCollator* icuCollator() const {
        return _collator.get();
    }

private:
    UCollatorPtr _collator;
};

}  // namespace mongo
