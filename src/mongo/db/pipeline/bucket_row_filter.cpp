#include "mongo/db/pipeline/bucket_row_filter.h"

#include <cmath>

#include "mongo/db/matcher/expression_leaf.h"

namespace mongo {

namespace {
template <typename T, typename R>
bool compare(int op, T v, R rhs) {
    switch (op) {
        case 0:
            return v == rhs;
        case 1:
            return v < rhs;
        case 2:
            return v <= rhs;
        case 3:
            return v > rhs;
        default:
            return v >= rhs;
    }
}
constexpr double kExactLimit = 9007199254740992.0;  // 2^53: int64 <-> double exact below
}  // namespace

BucketRowFilter BucketRowFilter::make(const MatchExpression& eventFilter, const BucketSpec& spec) {
    BucketRowFilter f;
    f.addConjuncts(eventFilter, spec);
    return f;
}

void BucketRowFilter::addConjuncts(const MatchExpression& e, const BucketSpec& spec) {
    using MT = MatchExpression::MatchType;
    if (e.matchType() == MT::kAnd) {
        for (size_t i = 0; i < e.numChildren(); ++i)
            addConjuncts(*e.getChild(i), spec);
        return;
    }
    Op op;
    switch (e.matchType()) {
        case MT::kEq:
            op = Op::kEq;
            break;
        case MT::kLt:
            op = Op::kLt;
            break;
        case MT::kLte:
            op = Op::kLte;
            break;
        case MT::kGt:
            op = Op::kGt;
            break;
        case MT::kGte:
            op = Op::kGte;
            break;
        default:
            return;  // not used to narrow the rows
    }
    auto* cmp = dynamic_cast<const ComparisonMatchExpression*>(&e);
    if (!cmp || cmp->path().empty() || cmp->path().find('.') != std::string::npos ||
        (spec.metaField && cmp->path() == *spec.metaField))
        return;
    BSONElement rhs = cmp->getData();
    Pred p{cmp->path(), op, false, 0, 0};
    if (rhs.type() == BSONType::kDate) {
        p.isDate = true;
        p.millis = rhs.date().toMillisSinceEpoch();
    } else if (rhs.type() == BSONType::kNumberDouble || rhs.type() == BSONType::kNumberInt ||
               (rhs.type() == BSONType::kNumberLong &&
                std::fabs(double(rhs.numberLong())) < kExactLimit)) {
        p.number = rhs.numberDouble();
        if (std::isnan(p.number))
            return;
    } else {
        return;
    }
    _preds.push_back(std::move(p));
}

bool BucketRowFilter::candidates(BucketUnpacker* unpacker, std::vector<uint64_t>* rows) const {
    using State = BucketUnpacker::ColumnAccess::State;
    const size_t n = unpacker->numberOfMeasurements();
    bool applied = false;
    for (const Pred& p : _preds) {
        auto col = unpacker->column(p.field);
        if (col.state == State::kOther)
            continue;
        if (!applied) {
            rows->assign((n + 63) / 64, ~uint64_t(0));
            if (n % 64)
                rows->back() = ~uint64_t(0) >> (64 - n % 64);
            applied = true;
        }
        if (col.state == State::kAbsent) {  // every row missing: no comparison holds
            rows->assign(rows->size(), 0);
            return true;
        }
        const ScalarColumn& s = *col.scalar;
        const int op = static_cast<int>(p.op);
        // A row whose value is of another kind (a number against a date) never matches:
        // comparisons are within one canonical type.
        const bool dateColumn = col.type == BSONType::kDate;
        const bool numberColumn = col.type == BSONType::kNumberDouble ||
                                  col.type == BSONType::kNumberInt ||
                                  col.type == BSONType::kNumberLong;
        for (size_t w = 0; w < rows->size(); ++w) {
            uint64_t keep = 0;
            const size_t base = w * 64;
            const size_t lim = std::min<size_t>(64, n - base);
            uint64_t live = (*rows)[w];
            if (!live)
                continue;
            for (size_t b = 0; b < lim; ++b) {
                const size_t i = base + b;
                if (!((live >> b) & 1) || i >= s.size || !s.isPresent(i))
                    continue;
                bool ok;
                if (p.isDate) {
                    ok = dateColumn && compare(op, s.ints[i], p.millis);
                } else if (!numberColumn) {
                    ok = false;
                } else if (col.type == BSONType::kNumberDouble) {
                    const double v = s.doubles[i];
                    ok = std::isnan(v) || compare(op, v, p.number);  // NaN: let the filter decide
                } else if (col.type == BSONType::kNumberLong &&
                           std::fabs(double(s.ints[i])) >= kExactLimit) {
                    ok = true;  // not exact in double: let the filter decide
                } else {
                    ok = compare(op, double(s.ints[i]), p.number);
                }
                keep |= uint64_t(ok) << b;
            }
            (*rows)[w] = keep;
        }
    }
    return applied;
}

}  // namespace mongo
