#include "mongo/db/matcher/expression_text.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/fts/fts_matcher.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {
constexpr StringData kSearch = "$search";
constexpr StringData kLanguage = "$language";
constexpr StringData kCaseSensitive = "$caseSensitive";
constexpr StringData kDiacriticSensitive = "$diacriticSensitive";
}  // namespace

StatusWith<std::unique_ptr<TextMatchExpression>> TextMatchExpression::parse(
    const BSONElement& operand) {
    if (operand.type() != BSONType::kObject)
        return Status(ErrorCodes::BadValue, "$text expects an object");
    Params p;
    bool haveSearch = false;
    for (BSONElement e : operand.Obj()) {
        StringData name = e.fieldNameStringData();
        if (name == kSearch) {
            if (e.type() != BSONType::kString)
                return Status(ErrorCodes::BadValue, "$search requires a string value");
            p.search = e.str();
            haveSearch = true;
        } else if (name == kLanguage) {
            if (e.type() != BSONType::kString)
                return Status(ErrorCodes::BadValue, "$language requires a string value");
            p.language = e.str();
            if (p.language.empty())
                return Status(ErrorCodes::BadValue,
                              "unsupported language: \"\" for text index version 3");
        } else if (name == kCaseSensitive) {
            if (e.type() != BSONType::kBool)
                return Status(ErrorCodes::BadValue, "$caseSensitive requires a boolean value");
            p.caseSensitive = e.boolean();
        } else if (name == kDiacriticSensitive) {
            if (e.type() != BSONType::kBool)
                return Status(ErrorCodes::BadValue, "$diacriticSensitive requires a boolean value");
            p.diacriticSensitive = e.boolean();
        } else {
            return Status(ErrorCodes::BadValue, "extra fields in $text: " + std::string(name));
        }
    }
    if (!haveSearch)
        return Status(ErrorCodes::BadValue, "$search required");
    return std::make_unique<TextMatchExpression>(std::move(p));
}

TextMatchExpression::TextMatchExpression(Params params)
    : MatchExpression(MatchType::kText), _params(std::move(params)) {}

TextMatchExpression::~TextMatchExpression() = default;

void TextMatchExpression::bind(std::shared_ptr<const fts::FTSMatcher> matcher,
                               bool needsCheck) const {
    _bound = std::move(matcher);
    _needsCheck = needsCheck;
}

void TextMatchExpression::bindMembers(std::shared_ptr<const Members> members) const {
    _members = std::move(members);
}

std::string TextMatchExpression::memberKey(const BSONObj& doc) {
    const BSONElement id = doc["_id"];
    std::string key(1, static_cast<char>(id.type()));
    if (!id.eoo())
        key.append(id.value(), id.valuesize());
    return key;
}

bool TextMatchExpression::matches(const BSONObj& doc, MatchDetails*) const {
    if (_members)
        return _members->contains(memberKey(doc));
    uassert(ErrorCodes::NoQueryExecutionPlans,
            "error processing query: planner returned error :: caused by :: Failed to produce a "
            "solution for TEXT under OR - other non-TEXT clauses under OR have to be indexed as "
            "well.",
            _bound);
    return !_needsCheck || _bound->matches(doc);
}

void TextMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart("$text"));
    sub.append(kSearch, _params.search);
    sub.append(kLanguage, _bound ? _bound->query().language().str() : _params.language);
    sub.append(kCaseSensitive, _params.caseSensitive);
    sub.append(kDiacriticSensitive, _params.diacriticSensitive);
    sub.done();
}

const TextMatchExpression* findTextExpression(const MatchExpression* root, int* count) {
    if (!root)
        return nullptr;
    const TextMatchExpression* found = nullptr;
    if (root->matchType() == MatchExpression::MatchType::kText) {
        found = static_cast<const TextMatchExpression*>(root);
        if (count)
            ++*count;
    }
    for (size_t i = 0; i < root->numChildren(); ++i)
        if (auto* t = findTextExpression(root->getChild(i), count); t && !found)
            found = t;
    return found;
}

Status checkNoTextExpression(const MatchExpression* filter) {
    if (findTextExpression(filter))
        return Status(ErrorCodes::QueryFeatureNotAllowed, "$text is not allowed in this context");
    return Status::OK();
}

const TextMatchExpression* topLevelTextExpression(const MatchExpression* root) {
    if (!root)
        return nullptr;
    if (root->matchType() == MatchExpression::MatchType::kText)
        return static_cast<const TextMatchExpression*>(root);
    if (root->matchType() != MatchExpression::MatchType::kAnd)
        return nullptr;
    for (size_t i = 0; i < root->numChildren(); ++i)
        if (auto* t = topLevelTextExpression(root->getChild(i)))
            return t;
    return nullptr;
}

}  // namespace mongo
