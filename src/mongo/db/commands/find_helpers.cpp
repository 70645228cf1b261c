#include "mongo/db/commands/find_helpers.h"

#include "mongo/db/matcher/expression.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/query/projection.h"
#include "mongo/db/query/sort_pattern.h"
#include "mongo/util/assert_util.h"

namespace mongo {

FindPlanParams makeFindParams(const BSONObj& filter, const BSONObj& sort,
                              const BSONObj& projection, const HintArg& hint) {
    FindPlanParams params;
    params.filter = filter.getOwned();
    if (!filter.isEmpty()) {
        auto m = uassertStatusOK(parseMatchExpression(params.filter));
        params.matcher = std::shared_ptr<MatchExpression>(std::move(m));
    }
    params.sort = sort.getOwned();
    if (!sort.isEmpty() && sort.firstElementFieldNameStringData() != "$natural") {
        params.sortPattern =
            std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(params.sort)));
    }
    if (!projection.isEmpty()) {
        auto proj = std::make_shared<Projection>(uassertStatusOK(Projection::parse(projection)));
        auto matcher = params.matcher;
        params.projectionSpec = projection.getOwned();
        params.simpleProjection = true;
        for (auto e : projection) {
            if (e.fieldNameStringData().find('.') != StringData::npos ||
                (!e.isNumber() && !e.isBoolean()))
                params.simpleProjection = false;
        }
        params.projection = [proj, matcher](const BSONObj& doc) {
            if (proj->requiresMatchDetails() && matcher) {
                MatchDetails details;
                details.requestElemMatchKey();
                matcher->matchesBSON(doc, &details);
                return uassertStatusOK(proj->apply(doc, &details));
            }
            return uassertStatusOK(proj->apply(doc));
        };
    }
    if (hint) {
        if (const std::string* name = std::get_if<std::string>(&*hint)) {
            params.hintName = *name;
            params.hint = BSON("$hint" << *name);
        } else {
            params.hint = std::get<BSONObj>(*hint).getOwned();
        }
    }
    return params;
}

}  // namespace mongo
