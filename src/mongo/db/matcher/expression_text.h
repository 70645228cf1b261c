// TextMatchExpression: {$text: {$search, $language, $caseSensitive, $diacriticSensitive}}.
// The operand is parsed here; what it matches depends on the collection's text index, so the
// planner binds it to that index (bind()) when it builds the TEXT plan, whose index scans find
// the candidate documents and their scores. Bound, matches() re-checks a candidate with the
// index's FTSMatcher (negations, phrases, case and diacritic sensitivity). Under $or, the
// planner reads the TEXT plan first and binds the node to the documents it found
// (bindMembers()). Unbound (a $text the planner could not serve), matches() refuses to guess:
// it throws NoQueryExecutionPlans 291.
#pragma once

#include <absl/container/flat_hash_set.h>
#include <memory>
#include <string>

#include "mongo/db/matcher/expression.h"

namespace mongo {

namespace fts {
class FTSMatcher;
}  // namespace fts

class TextMatchExpression : public MatchExpression {
public:
    struct Params {
        std::string search;
        std::string language;  // "" when not given: the index's default_language
        bool caseSensitive = false;
        bool diacriticSensitive = false;
    };

    /**
     * Parses the operand of $text. BadValue for a non-object, a missing or non-string
     * $search, non-string $language, non-boolean $caseSensitive/$diacriticSensitive, or an
     * unknown field.
     */
    static StatusWith<std::unique_ptr<TextMatchExpression>> parse(const BSONElement& operand);

    explicit TextMatchExpression(Params params);
    ~TextMatchExpression() override;

    const Params& params() const {
        return _params;
    }
    /**
     * Binds the expression to the text index the plan scans (called by the planner on the
     * query's own tree before it runs; the matcher then re-checks candidates with it).
     * `needsCheck`: false when the index scan alone decides the match (no negation, phrase or
     * sensitivity), so matches() is true for every candidate.
     */
    void bind(std::shared_ptr<const fts::FTSMatcher> matcher, bool needsCheck) const;

    /** The documents a TEXT plan found, by memberKey(): a $text under $or matches those. */
    using Members = absl::flat_hash_set<std::string>;
    /**
     * Binds a $text under $or to the documents its TEXT plan found (read before the filter is
     * evaluated): matches() is then membership.
     */
    void bindMembers(std::shared_ptr<const Members> members) const;
    /** A document's key in Members: its _id's type and value bytes (unique per document). */
    static std::string memberKey(const BSONObj& doc);

    bool matches(const BSONObj& doc, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;

private:
    Params _params;
    // Set once by bind(), before the plan runs (the tree is not shared between queries).
    mutable std::shared_ptr<const fts::FTSMatcher> _bound;
    mutable bool _needsCheck = true;
    mutable std::shared_ptr<const Members> _members;
};

/** The $text node of a filter (nullptr if none). Counts every $text in the tree in `*count`. */
const TextMatchExpression* findTextExpression(const MatchExpression* root, int* count = nullptr);

/**
 * For filters no query plan serves (validators, partial filters): QueryFeatureNotAllowed 224
 * "$text is not allowed in this context" when `filter` (parsed) has a $text, else OK.
 */
Status checkNoTextExpression(const MatchExpression* filter);

/**
 * The $text node the TEXT plan can serve: the root itself, or a child of the root $and (also
 * through nested $and). Nullptr when the filter has none there.
 */
const TextMatchExpression* topLevelTextExpression(const MatchExpression* root);

}  // namespace mongo
