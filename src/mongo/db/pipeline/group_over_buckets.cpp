#include "mongo/db/pipeline/group_over_buckets.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>
#include <tuple>

#include <cmath>
#include <limits>

#include "mongo/db/matcher/expression_leaf.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/pipeline/block_accumulators.h"
#include "mongo/db/pipeline/date_util.h"
#include "mongo/db/pipeline/document_source_group.h"
#include "mongo/db/pipeline/document_source_internal_unpack_bucket.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

constexpr long long kTruncRef = 946684800000LL;  // 2000-01-01T00:00:00Z, $dateTrunc's origin
constexpr uint32_t kSkipRows = std::numeric_limits<uint32_t>::max();  // a run no group takes

/** The types a block $min/$max folds from a column (minMaxRun) or takes from control. */
bool isMinMaxBlockType(BSONType t) {
    return t == BSONType::kNumberDouble || t == BSONType::kNumberInt ||
           t == BSONType::kNumberLong || t == BSONType::kDate;
}

/** Thrown by groupForRow() on the helper thread for a key only idExpr gives. */
struct NeedsOwnerThread {};

}  // namespace

// ---------------------------------------------------------------------------------------
// The analysed spec.

struct GroupOverBuckets::Plan {
    enum class Op { kSum, kAvg, kMin, kMax, kTopBottom };
    struct Acc {
        Op op;
        std::string field;  // empty: constant
        Value constant;
        // kTopBottom ($top/$bottom sorted on the time field alone): the row of the run with
        // the latest time (or earliest) is folded in; its output reads these fields.
        bool bottom = false;
        int timeDir = 0;
        std::vector<std::string> outputFields;
    };

    BucketSpec spec;
    ExprPtr idExpr;
    std::vector<std::string> idNullFields;    // objectIdFieldNames(): missing groups as null
    std::vector<AccumulationStatement> accs;  // generic expressions (per-measurement path)
    std::vector<Acc> blockAccs;
    // The unpack stage's filters: a bucket matching `wholeBucketFilter` keeps every
    // measurement; other buckets keep those matching `eventFilter` (per measurement).
    std::unique_ptr<MatchExpression> eventFilter;
    std::unique_ptr<MatchExpression> wholeBucketFilter;
    // When the eventFilter is only comparisons of the time field with dates: the times it
    // keeps, [filterLo, filterHi] (inclusive). A bucket it does not keep whole then still
    // takes the block path, its other rows skipped.
    bool timeRangeFilter = false;
    int64_t filterLo = std::numeric_limits<int64_t>::min();
    int64_t filterHi = std::numeric_limits<int64_t>::max();
    bool keyUsesMeta = false;
    bool keyUsesTime = false;
    bool needsTimeColumn = false;  // a $top/$bottom picks rows by time
    long long width = 0;           // time bin width in ms (1: the time itself)
    long long origin = 0;

    // The _id as a template the block path fills in per group without evaluating idExpr
    // (compileKey): paths into the meta field, the time, its $dateTrunc bin and constants, in
    // objects. Absent when the _id has other shapes (arrays...) or the spec leaves out the
    // time or meta field; a meta path that meets an array also takes idExpr.
    struct KeyNode {
        enum class Kind { kConst, kMeta, kTime, kBin, kObject };
        Kind kind = Kind::kConst;
        BSONElement constant;                                 // kConst; into groupSpec
        std::vector<std::string> metaPath;                    // kMeta: the parts after meta
        std::vector<std::pair<std::string, KeyNode>> fields;  // kObject
    };
    BSONObj groupSpec;  // owned: KeyNode::constant points into it
    std::optional<KeyNode> keyTemplate;

    bool isMetaPath(StringData path) const {
        if (!spec.metaField)
            return false;
        StringData first = path.substr(0, path.find('.'));
        return first == *spec.metaField;
    }
    bool setTimeBins(long long w, long long o) {
        if (keyUsesTime && (width != w || origin != o))
            return false;
        keyUsesTime = true;
        width = w;
        origin = o;
        return true;
    }
    bool analyzeTimeFilter(const MatchExpression* e);
    bool analyzeKey(const BSONElement& e);
    /** The template of the _id `e` (analyzeKey() accepted it), or false for idExpr. */
    bool compileKey(const BSONElement& e, KeyNode* out) const;
    bool analyzeDateTrunc(const BSONElement& args);
    bool analyzeAccumulator(const BSONElement& e);
};

bool GroupOverBuckets::Plan::analyzeTimeFilter(const MatchExpression* e) {
    using MT = MatchExpression::MatchType;
    switch (e->matchType()) {
        case MT::kAnd:
            for (size_t i = 0; i < e->numChildren(); ++i)
                if (!analyzeTimeFilter(e->getChild(i)))
                    return false;
            return true;
        case MT::kAlwaysTrue:
            return true;
        case MT::kEq:
        case MT::kLt:
        case MT::kLte:
        case MT::kGt:
        case MT::kGte: {
            auto* cmp = dynamic_cast<const ComparisonMatchExpression*>(e);
            if (!cmp || cmp->path() != spec.timeField || cmp->getData().type() != BSONType::kDate)
                return false;
            // Every row's time is a date (processBlock checks the column), so these compare
            // milliseconds.
            const int64_t v = cmp->getData().date().toMillisSinceEpoch();
            constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
            constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
            const MT t = e->matchType();
            if (t == MT::kEq || t == MT::kGte)
                filterLo = std::max(filterLo, v);
            if (t == MT::kEq || t == MT::kLte)
                filterHi = std::min(filterHi, v);
            if (t == MT::kGt) {
                if (v == kMax)
                    filterHi = kMin, filterLo = kMax;  // nothing
                else
                    filterLo = std::max(filterLo, v + 1);
            }
            if (t == MT::kLt) {
                if (v == kMin)
                    filterHi = kMin, filterLo = kMax;
                else
                    filterHi = std::min(filterHi, v - 1);
            }
            return true;
        }
        default:
            return false;
    }
}

bool GroupOverBuckets::Plan::analyzeKey(const BSONElement& e) {
    switch (e.type()) {
        case BSONType::kString: {
            StringData s = e.valueStringData();
            if (!s.starts_with("$"))
                return true;
            if (s.starts_with("$$"))
                return false;
            StringData path = s.substr(1);
            if (isMetaPath(path)) {
                keyUsesMeta = true;
                return true;
            }
            return path == spec.timeField && setTimeBins(1, 0);
        }
        case BSONType::kObject: {
            BSONObj obj = e.embeddedObject();
            if (obj.isEmpty())
                return true;
            StringData first = obj.firstElementFieldNameStringData();
            if (first.starts_with("$")) {
                if (obj.nFields() != 1)
                    return false;
                if (first == "$literal")
                    return true;
                return first == "$dateTrunc" && analyzeDateTrunc(obj.firstElement());
            }
            for (auto f : obj)
                if (!analyzeKey(f))
                    return false;
            return true;
        }
        case BSONType::kArray:
            for (auto f : e.embeddedObject())
                if (!analyzeKey(f))
                    return false;
            return true;
        default:
            return true;  // a constant
    }
}

bool GroupOverBuckets::Plan::compileKey(const BSONElement& e, KeyNode* out) const {
    using Kind = KeyNode::Kind;
    switch (e.type()) {
        case BSONType::kString: {
            StringData s = e.valueStringData();
            if (!s.starts_with("$")) {
                out->kind = Kind::kConst;
                out->constant = e;
                return true;
            }
            StringData path = s.substr(1);
            if (path == spec.timeField) {
                out->kind = Kind::kTime;
                return true;
            }
            if (!isMetaPath(path))
                return false;
            out->kind = Kind::kMeta;
            for (size_t dot = path.find('.'); dot != std::string::npos;) {
                const size_t next = path.find('.', dot + 1);
                out->metaPath.emplace_back(path.substr(dot + 1, next - dot - 1));
                dot = next;
            }
            return true;
        }
        case BSONType::kObject: {
            BSONObj obj = e.embeddedObject();
            StringData first = obj.isEmpty() ? StringData() : obj.firstElementFieldNameStringData();
            if (first == "$literal") {
                out->kind = Kind::kConst;
                out->constant = obj.firstElement();
                return true;
            }
            if (first == "$dateTrunc") {
                out->kind = Kind::kBin;
                return true;
            }
            if (first.starts_with("$"))
                return false;
            out->kind = Kind::kObject;
            for (auto f : obj) {
                KeyNode child;
                if (!compileKey(f, &child))
                    return false;
                out->fields.emplace_back(std::string(f.fieldNameStringData()), std::move(child));
            }
            return true;
        }
        case BSONType::kArray:
            return false;
        default:
            out->kind = Kind::kConst;
            out->constant = e;
            return true;
    }
}

namespace {

/**
 * Appends the value of the template `n` as `name` for rows with meta `meta`, time `t` and time
 * bin start `bin` (KeyNode), as evaluating the _id would: a missing value adds no field. False
 * when a meta path meets an array (the path would map over it): the caller then evaluates.
 */
bool appendKey(const GroupOverBuckets::Plan::KeyNode& n, StringData name, const BSONElement& meta,
               int64_t bin, int64_t t, BSONObjBuilder* b) {
    using Kind = GroupOverBuckets::Plan::KeyNode::Kind;
    switch (n.kind) {
        case Kind::kConst:
            b->appendAs(n.constant, name);
            return true;
        case Kind::kTime:
            b->appendDate(name, Date_t::fromMillisSinceEpoch(t));
            return true;
        case Kind::kBin:
            b->appendDate(name, Date_t::fromMillisSinceEpoch(bin));
            return true;
        case Kind::kMeta: {
            BSONElement e = meta;
            for (const auto& part : n.metaPath) {
                if (e.type() == BSONType::kArray)
                    return false;
                if (e.type() != BSONType::kObject)
                    return true;  // missing
                e = e.embeddedObject().getField(part);
            }
            if (!e.eoo())
                b->appendAs(e, name);
            return true;
        }
        case Kind::kObject: {
            BSONObjBuilder sub(b->subobjStart(name));
            for (const auto& [field, child] : n.fields)
                if (!appendKey(child, field, meta, bin, t, &sub))
                    return false;
            return true;
        }
    }
    return false;
}

bool metaPartsHash(const GroupOverBuckets::Plan::KeyNode& n, const BSONElement& meta, size_t* h) {
    using Kind = GroupOverBuckets::Plan::KeyNode::Kind;
    if (n.kind == Kind::kObject) {
        for (const auto& [field, child] : n.fields)
            if (!metaPartsHash(child, meta, h))
                return false;
        return true;
    }
    if (n.kind != Kind::kMeta)
        return true;
    BSONElement e = meta;
    for (const auto& part : n.metaPath) {
        if (e.type() == BSONType::kArray)
            return false;
        if (e.type() != BSONType::kObject) {
            e = BSONElement();
            break;
        }
        e = e.embeddedObject().getField(part);
    }
    // An array here may equal the array a path through arrays gives: both stay on share 0.
    if (e.type() == BSONType::kArray)
        return false;
    // Missing may group as null (a one-field object _id): null, undefined and missing alike.
    const bool nullish = e.eoo() || e.type() == BSONType::kNull || e.type() == BSONType::kUndefined;
    const size_t v = nullish ? size_t(0x9e3779b97f4a7c15ULL) : Value(e).hash(0, nullptr);
    *h = (*h * 1000003) ^ v;
    return true;
}

}  // namespace

bool GroupOverBuckets::Plan::analyzeDateTrunc(const BSONElement& args) {
    if (args.type() != BSONType::kObject)
        return false;
    bool haveDate = false;
    TimeUnit unit = TimeUnit::kYear;
    bool haveUnit = false;
    long long binSize = 1;
    for (auto a : args.embeddedObject()) {
        StringData name = a.fieldNameStringData();
        bool isString = a.type() == BSONType::kString;
        if (name == "date") {
            haveDate = isString && a.valueStringData() == "$" + spec.timeField;
        } else if (name == "unit") {
            haveUnit = isString && !a.valueStringData().starts_with("$") &&
                       parseTimeUnit(a.valueStringData(), &unit);
        } else if (name == "binSize") {
            Value v(a);
            if (!v.integral64Bit() || v.getLong() <= 0)
                return false;
            binSize = v.getLong();
        } else if (name == "timezone") {
            if (!isString || (a.valueStringData() != "UTC" && a.valueStringData() != "GMT"))
                return false;
        } else if (name == "startOfWeek") {
            if (!isString || a.valueStringData().starts_with("$"))
                return false;
        } else {
            return false;
        }
    }
    if (!haveDate || !haveUnit || unit > TimeUnit::kDay)
        return false;
    long long width;
    if (__builtin_mul_overflow(unitMillis(unit), binSize, &width))
        return false;
    return setTimeBins(width, kTruncRef);
}

bool GroupOverBuckets::Plan::analyzeAccumulator(const BSONElement& e) {
    if (e.type() != BSONType::kObject || e.embeddedObject().nFields() != 1)
        return false;
    BSONElement arg = e.embeddedObject().firstElement();
    StringData op = arg.fieldNameStringData();
    Acc acc;
    if (op == "$count") {
        acc.op = Op::kSum;
        acc.constant = Value(1);
        blockAccs.push_back(std::move(acc));
        return true;
    }
    if (op == "$top" || op == "$bottom") {
        // {sortBy: {<time>: 1|-1}, output: "$f" or ["$f", ...]} over top-level measurement
        // fields: the generic accumulator is fed the chosen row of each run.
        if (arg.type() != BSONType::kObject || arg.Obj().nFields() != 2)
            return false;
        BSONElement sortBy = arg.Obj()["sortBy"], output = arg.Obj()["output"];
        if (sortBy.type() != BSONType::kObject || sortBy.Obj().nFields() != 1)
            return false;
        BSONElement key = sortBy.Obj().firstElement();
        if (key.fieldNameStringData() != spec.timeField || !key.isNumber() ||
            (key.numberDouble() != 1 && key.numberDouble() != -1))
            return false;
        acc.op = Op::kTopBottom;
        acc.bottom = op == "$bottom";
        acc.timeDir = key.numberDouble() > 0 ? 1 : -1;
        auto addField = [&](const BSONElement& f) {
            if (f.type() != BSONType::kString || !f.valueStringData().starts_with("$"))
                return false;
            StringData path = f.valueStringData().substr(1);
            if (path.empty() || path.starts_with("$") || path.find('.') != StringData::npos ||
                (spec.metaField && path == *spec.metaField))
                return false;
            acc.outputFields.emplace_back(path);
            return true;
        };
        if (output.type() == BSONType::kArray) {
            for (auto f : output.Obj())
                if (!addField(f))
                    return false;
        } else if (!addField(output)) {
            return false;
        }
        needsTimeColumn = true;
        blockAccs.push_back(std::move(acc));
        return true;
    }
    if (op == "$sum")
        acc.op = Op::kSum;
    else if (op == "$avg")
        acc.op = Op::kAvg;
    else if (op == "$min")
        acc.op = Op::kMin;
    else if (op == "$max")
        acc.op = Op::kMax;
    else
        return false;
    if (arg.type() == BSONType::kString && arg.valueStringData().starts_with("$")) {
        StringData path = arg.valueStringData().substr(1);
        if (path.starts_with("$") || path.find('.') != StringData::npos || path.empty() ||
            (spec.metaField && path == *spec.metaField))
            return false;
        acc.field = std::string(path);
    } else if (acc.op == Op::kSum && arg.type() != BSONType::kObject &&
               arg.type() != BSONType::kArray && arg.type() != BSONType::kString) {
        acc.constant = Value::copyOf(arg);
    } else {
        return false;
    }
    blockAccs.push_back(std::move(acc));
    return true;
}

// ---------------------------------------------------------------------------------------

std::unique_ptr<GroupOverBuckets> GroupOverBuckets::make(std::shared_ptr<ExpressionContext> expCtx,
                                                         const BSONObj& groupSpec,
                                                         const BucketSpec& spec) {
    if (!spec.computedMetaProjFields.empty())
        return nullptr;
    auto plan = std::make_unique<Plan>();
    plan->spec = spec;
    plan->groupSpec = groupSpec.getOwned();
    BSONElement idElem;  // into plan->groupSpec
    for (auto e : plan->groupSpec) {
        if (e.fieldNameStringData() == "_id") {
            if (!idElem.eoo() || !plan->analyzeKey(e))
                return nullptr;
            idElem = e;
        } else if (!plan->analyzeAccumulator(e)) {
            return nullptr;
        }
    }
    if (idElem.eoo())
        return nullptr;
    auto vps = expCtx->makeParseState();
    plan->idExpr = Expression::parseOperand(expCtx.get(), idElem, vps);
    plan->idNullFields = objectIdFieldNames(groupSpec);
    if (spec.includes(spec.timeField) && (!spec.metaField || spec.includes(*spec.metaField))) {
        Plan::KeyNode key;
        if (plan->compileKey(idElem, &key))
            plan->keyTemplate = std::move(key);
    }
    for (auto e : groupSpec)
        if (e.fieldNameStringData() != "_id")
            plan->accs.push_back(parseAccumulationStatement(expCtx.get(), e, vps));
    return std::unique_ptr<GroupOverBuckets>(
        new GroupOverBuckets(std::move(expCtx), std::move(plan)));
}

std::unique_ptr<GroupOverBuckets> GroupOverBuckets::make(
    std::shared_ptr<ExpressionContext> expCtx, const BSONObj& groupSpec,
    const DocumentSourceInternalUnpackBucket& unpack) {
    BSONArrayBuilder arr;
    unpack.serialize(&arr);
    BSONObj stages = arr.arr();  // owns the bytes `stage` points into
    BSONObj stage = stages.firstElement().embeddedObject().firstElement().embeddedObject();
    if (stage.hasField("computedMetaProjFields"))
        return nullptr;
    auto out = make(std::move(expCtx), groupSpec, unpack.bucketSpec());
    if (!out)
        return nullptr;
    BSONElement event = stage["eventFilter"];
    BSONElement whole = stage["wholeBucketFilter"];
    if (event.type() == BSONType::kObject && !event.Obj().isEmpty()) {
        // As the unpack stage's own filters: $expr sees the pipeline's variables (a
        // $lookup's `let`) and strings compare with the collation in force.
        ExprParseContextGuard guard(out->_expCtx);
        const CollatorInterface* collator = out->_expCtx->getCollator();
        out->_plan->eventFilter = uassertStatusOK(parseMatchExpression(event.Obj().getOwned()));
        if (collator)
            out->_plan->eventFilter->setCollator(collator);
        Plan& plan = *out->_plan;
        plan.timeRangeFilter = plan.analyzeTimeFilter(plan.eventFilter.get());
        if (whole.type() == BSONType::kObject && !whole.Obj().isEmpty()) {
            out->_plan->wholeBucketFilter =
                uassertStatusOK(parseMatchExpression(whole.Obj().getOwned()));
            if (collator)
                out->_plan->wholeBucketFilter->setCollator(collator);
        }
    }
    return out;
}

GroupOverBuckets::GroupOverBuckets(std::shared_ptr<ExpressionContext> expCtx,
                                   std::shared_ptr<Plan> plan)
    : _expCtx(std::move(expCtx)), _plan(std::move(plan)) {}

GroupOverBuckets::~GroupOverBuckets() = default;

void GroupOverBuckets::processAll(DocumentSourceInternalUnpackBucket* unpack) {
    processBuckets([unpack] { return unpack->nextBucketObjForBlockRead(); });
}

// The second thread of processBuckets(): folds the buckets of share 1 into its own instance
// `part`, from a bounded queue the owner fills in scan order. It leaves (stopped) at the end,
// at a bucket it cannot fold (put back at the queue's front for the owner) or on an error.
struct GroupOverBuckets::Helper {
    // The queue's bounds: buckets, and their bytes (a bucket may be up to 16 MB).
    static constexpr size_t kMaxQueued = 32;
    static constexpr size_t kMaxQueuedBytes = 8 << 20;
    // A waiting side is woken when this many buckets are queued (helper) or free (owner):
    // a wake-up costs microseconds of the kernel, one per bucket would cost more than a share.
    static constexpr size_t kWakeBatch = 8;

    explicit Helper(GroupOverBuckets* owner)
        : part(new GroupOverBuckets(owner->_expCtx, owner->_plan)), unpacker(owner->_plan->spec) {
        part->_mem = owner->_mem;
    }
    ~Helper() {
        if (thread.joinable()) {
            {
                std::lock_guard<std::mutex> lk(mu);
                abandon = true;
            }
            cv.notify_all();
            thread.join();
        }
    }

    void run() {
        for (;;) {
            std::pair<long long, BSONObj> item;
            bool wake = false;
            {
                std::unique_lock<std::mutex> lk(mu);
                if (queue.empty() && !ending && !abandon) {
                    helperWaits = true;
                    cv.wait(lk, [&] { return !queue.empty() || ending || abandon; });
                    helperWaits = false;
                }
                if (abandon || queue.empty()) {
                    stopped = true;
                    lk.unlock();
                    cv.notify_all();
                    return;
                }
                item = std::move(queue.front());
                queue.pop_front();
                queuedBytes -= static_cast<size_t>(item.second.objsize());
                wake = ownerWaits && queue.size() + kWakeBatch <= kMaxQueued;
            }
            if (wake)
                cv.notify_all();  // room in the queue
            bool folded = false;
            std::exception_ptr failure;
            try {
                part->_bucketSeq = item.first;
                unpacker.reset(item.second);
                folded = part->processOnHelper(&unpacker);
            } catch (const NeedsOwnerThread&) {
                folded = false;
            } catch (...) {
                failure = std::current_exception();
            }
            if (!folded) {
                std::lock_guard<std::mutex> lk(mu);
                if (failure)
                    error = failure;
                else {
                    queuedBytes += static_cast<size_t>(item.second.objsize());
                    queue.push_front(std::move(item));
                }
                stopped = true;
                cv.notify_all();
                return;
            }
        }
    }

    /** Owner: queues `bucket`; false when the helper has stopped (the caller folds it). */
    bool offer(long long seq, BSONObj bucket) {
        std::unique_lock<std::mutex> lk(mu);
        auto full = [&] {
            return !queue.empty() && (queue.size() >= kMaxQueued || queuedBytes >= kMaxQueuedBytes);
        };
        if (full() && !stopped) {
            ownerWaits = true;
            cv.wait(lk, [&] { return !full() || stopped; });
            ownerWaits = false;
        }
        if (stopped)
            return false;
        queuedBytes += static_cast<size_t>(bucket.objsize());
        queue.emplace_back(seq, std::move(bucket));
        // (Full: the owner waits next time, so the helper must not wait for more.)
        const bool wake = helperWaits && (queue.size() >= kWakeBatch || full());
        lk.unlock();
        if (wake)
            cv.notify_all();
        return true;
    }

    /**
     * Owner: waits for the helper to finish what it took, rethrows its error, then folds what
     * it left, in order, on this thread. Afterwards `part` is the owner's to use.
     */
    void finish(ExpressionContext* expCtx) {
        if (thread.joinable()) {
            {
                std::lock_guard<std::mutex> lk(mu);
                ending = true;
            }
            cv.notify_all();
            thread.join();
        }
        if (error)
            std::rethrow_exception(error);
        while (!queue.empty()) {
            auto item = std::move(queue.front());
            queue.pop_front();
            expCtx->checkForInterrupt();
            fold(item.first, item.second);
        }
    }

    /**
     * 0 (the owner) or 1 (the helper): whose groups the key of `bucket`'s rows belongs to. By
     * the hash of the key's meta part (null, undefined and missing alike; a path that meets
     * an array: 0), each hash given on first sight to the helper while it has fewer than two
     * in three of them (the owner also reads the buckets from storage).
     */
    int shareOf(const BSONObj& bucket) {
        size_t h = 0;
        if (!metaPartsHash(*part->_plan->keyTemplate, bucket[timeseries::kBucketMetaFieldName], &h))
            return 0;
        auto [it, inserted] = shares.try_emplace(h, 0);
        if (inserted) {
            it->second = 3 * helperShares < 2 * shares.size() ? 1 : 0;
            helperShares += it->second;
        }
        return it->second;
    }

    /** The owner folds a bucket of share 1 itself (helper not started, or finished). */
    void fold(long long seq, const BSONObj& bucket) {
        part->_onHelper = false;
        part->_bucketSeq = seq;
        unpacker.reset(bucket);
        part->processBucket(&unpacker);
    }

    std::unique_ptr<GroupOverBuckets> part;
    BucketUnpacker unpacker;
    absl::flat_hash_map<size_t, int> shares;  // the owner's: meta part hash -> share
    size_t helperShares = 0;
    std::thread thread;
    std::mutex mu;
    std::condition_variable cv;  // queue changes and stops, both ways
    // Guarded by mu while the thread runs; the owner's alone before it starts and after join.
    std::deque<std::pair<long long, BSONObj>> queue;
    size_t queuedBytes = 0;
    bool ending = false;       // the owner has queued its last bucket
    bool abandon = false;      // the owner is unwinding: leave now
    bool stopped = false;      // the helper has left
    bool helperWaits = false;  // for a bucket (the owner notifies)
    bool ownerWaits = false;   // for room in the queue (the helper notifies)
    std::exception_ptr error;
};

bool GroupOverBuckets::canSplit() const {
    const Plan& plan = *_plan;
    static const unsigned kCores = std::thread::hardware_concurrency();  // reads /sys: once
    if (!plan.keyUsesMeta || !plan.keyTemplate || plan.eventFilter || plan.needsTimeColumn ||
        gInternalQueryBlockGroupThreads.load() < 2 || kCores < 2)
        return false;
    for (const auto& a : plan.blockAccs)
        if (a.op == Plan::Op::kTopBottom)
            return false;  // folded through the expressions' Variables
    return true;
}

bool GroupOverBuckets::processOnHelper(BucketUnpacker* unpacker) {
    _onHelper = true;
    if (!processBlock(unpacker, false))
        return false;
    ++_blockBuckets;
    ++_helperBuckets;
    return true;
}

void GroupOverBuckets::mergeGroups(GroupOverBuckets* other) {
    std::vector<Group> merged;
    merged.reserve(_groups.size() + other->_groups.size());
    size_t i = 0, j = 0;
    while (i < _groups.size() || j < other->_groups.size()) {
        // No bucket is folded by both, so no two groups share a first-seen position.
        if (j == other->_groups.size() ||
            (i < _groups.size() && _firstSeen[i] < other->_firstSeen[j]))
            merged.push_back(std::move(_groups[i++]));
        else
            merged.push_back(std::move(other->_groups[j++]));
    }
    _groups = std::move(merged);
    _index.clear();  // positions changed; only releaseGroups() follows
    _hashes.clear();
    _rowGroups.clear();
    _firstSeen.clear();
    _blockBuckets += other->_blockBuckets;
    _fallbackBuckets += other->_fallbackBuckets;
    _helperBuckets += other->_helperBuckets;
    _controlBounds += other->_controlBounds;
}

void GroupOverBuckets::processBuckets(const std::function<std::optional<BSONObj>()>& next,
                                      long long parallelAfter) {
    BucketUnpacker unpacker(_plan->spec);
    std::unique_ptr<Helper> helper;
    if (canSplit())
        helper = std::make_unique<Helper>(this);
    bool helperDone = false;  // started and finished: the owner folds share 1 itself
    long long seq = 0;
    while (std::optional<BSONObj> bucket = next()) {
        _expCtx->checkForInterrupt();  // once per bucket (up to 1000 measurements)
        const long long pos = seq++;
        if (helper && helper->shareOf(*bucket) == 1) {
            if (!helperDone && !helper->thread.joinable() && pos >= parallelAfter) {
                try {
                    helper->thread = std::thread([h = helper.get()] { h->run(); });
                } catch (const std::system_error&) {
                    helperDone = true;  // no thread to be had: this one folds every bucket
                }
            }
            if (helper->thread.joinable() && !helperDone) {
                if (helper->offer(pos, bucket->getOwned()))
                    continue;
                helper->finish(_expCtx.get());
                helperDone = true;
            }
            helper->fold(pos, *bucket);
            continue;
        }
        _bucketSeq = pos;
        unpacker.reset(*bucket);
        processBucket(&unpacker);
    }
    if (helper) {
        helper->finish(_expCtx.get());
        mergeGroups(helper->part.get());
    }
}

std::vector<GroupOverBuckets::Group> GroupOverBuckets::releaseGroups() {
    _index.clear();
    _hashes.clear();
    _rowGroups.clear();
    _firstSeen.clear();
    return std::move(_groups);
}

void GroupOverBuckets::chargeMemory(size_t bytes) {
    const size_t used = _mem->fetch_add(bytes, std::memory_order_relaxed) + bytes;
    uassert(ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed,
            "Exceeded memory limit for $group, but didn't allow external sort. Pass "
            "allowDiskUse:true to opt in.",
            used <= static_cast<size_t>(_expCtx->maxMemoryBytes) || _expCtx->allowDiskUse);
}

size_t GroupOverBuckets::groupFor(const Value& evaluated) {
    Value key = evaluated.missing() ? Value::null()
                                    : withNullForMissingFields(evaluated, _plan->idNullFields);
    const size_t hash = ValueHash{}(key);
    auto it = _index.find(KeyProbe{&key, hash});
    if (it != _index.end())
        return *it;
    Group g;
    g.key = key.getOwned();
    for (const auto& a : _plan->blockAccs) {
        if (a.op == Plan::Op::kSum || a.op == Plan::Op::kAvg)
            g.accs.push_back(std::make_unique<BlockSum>(a.op == Plan::Op::kAvg));
        else if (a.op == Plan::Op::kTopBottom)
            g.accs.push_back(_plan->accs[g.accs.size()].makeForGroup(g.key));
        else
            g.accs.push_back(std::make_unique<AccumulatorMinMax>(a.op == Plan::Op::kMax));
    }
    size_t idx = _groups.size();
    _groups.push_back(std::move(g));
    _firstSeen.push_back(_bucketSeq);
    _hashes.push_back(hash);
    _index.insert(static_cast<uint32_t>(idx));
    chargeMemory(128 + static_cast<size_t>(_groups.back().key.elem().size()) +
                 64 * _plan->blockAccs.size());
    return idx;
}

uint32_t GroupOverBuckets::metaIdOf(const BSONElement& meta) {
    // The element's bytes, read in place: the name is always the bucket's "meta", so equal
    // bytes mean the same type and value bytes (none: the empty key).
    const absl::string_view key =
        meta.eoo() ? absl::string_view()
                   : absl::string_view(meta.rawdata(), static_cast<size_t>(meta.size()));
    auto it = _metaIds.find(key);
    if (it != _metaIds.end())
        return it->second;
    uint32_t id = static_cast<uint32_t>(_metaIds.size());
    _metaIds.emplace(std::string(key), id);
    return id;
}

size_t GroupOverBuckets::groupForRow(uint32_t metaId, int64_t bin, int64_t t,
                                     const BSONElement& meta) {
    auto it = _rowGroups.find(std::make_pair(metaId, bin));
    if (it != _rowGroups.end())
        return it->second;
    if (_plan->keyTemplate) {
        // The key from the template, when the time bin is exact (not clamped) and no meta
        // path meets an array.
        const bool binOk =
            !_plan->keyUsesTime || (bin <= t && static_cast<__int128>(t) - bin < _plan->width);
        BSONObjBuilder kb;
        if (binOk && appendKey(*_plan->keyTemplate, "", meta, bin, t, &kb)) {
            BSONObj holder = kb.obj();
            size_t idx = groupFor(holder.isEmpty() ? Value() : Value::adoptFirstElement(holder));
            _rowGroups.emplace(std::make_pair(metaId, bin), static_cast<uint32_t>(idx));
            return idx;
        }
    }
    // The key of these rows is the _id expression over {time, meta} of one of them.
    if (_onHelper)
        throw NeedsOwnerThread{};  // the expression's Variables are the owner's
    const BucketSpec& spec = _plan->spec;
    BSONObjBuilder b;
    if (spec.includes(spec.timeField))
        b.appendDate(spec.timeField, Date_t::fromMillisSinceEpoch(t));
    if (spec.metaField && !meta.eoo() && spec.includes(*spec.metaField))
        b.appendAs(meta, *spec.metaField);
    BSONObj doc = b.obj();
    Variables* vars = &_expCtx->variables;
    size_t idx;
    {
        ScopedFieldCache fieldCache(vars, doc);
        idx = groupFor(_plan->idExpr->evaluate(doc, vars));
    }
    _rowGroups.emplace(std::make_pair(metaId, bin), static_cast<uint32_t>(idx));
    return idx;
}

void GroupOverBuckets::processBucket(BucketUnpacker* unpacker) {
    const Plan& plan = *_plan;
    const bool filtered =
        plan.eventFilter &&
        !(plan.wholeBucketFilter && plan.wholeBucketFilter->matchesBSON(unpacker->bucket()));
    if ((!filtered || plan.timeRangeFilter) && processBlock(unpacker, filtered)) {
        ++_blockBuckets;
        return;
    }
    ++_fallbackBuckets;
    processGeneric(unpacker, filtered ? plan.eventFilter.get() : nullptr);
}

void GroupOverBuckets::processGeneric(BucketUnpacker* unpacker, const MatchExpression* filter) {
    Variables* vars = &_expCtx->variables;
    while (unpacker->hasNext()) {
        _expCtx->checkForInterruptEvery128();
        BSONObj doc = unpacker->getNext();
        if (filter && !filter->matchesBSON(doc))
            continue;
        ScopedFieldCache fieldCache(vars, doc);
        Group& g = _groups[groupFor(_plan->idExpr->evaluate(doc, vars))];
        for (size_t i = 0; i < _plan->accs.size(); ++i)
            g.accs[i]->process(_plan->accs[i].expr->evaluate(doc, vars));
    }
}

namespace {
/** The bin [start, end) of `t` for bins of `width` ms from `origin`, clamped to int64. */
std::pair<int64_t, int64_t> timeBin(int64_t t, long long origin, long long width) {
    // floor((t - origin) / width), exact for any int64 time.
    __int128 off = static_cast<__int128>(t) - origin;
    __int128 q = off / width;
    if (off % width < 0)
        --q;
    __int128 start = origin + q * width;
    __int128 end = start + width;
    constexpr __int128 kMin = std::numeric_limits<int64_t>::min();
    constexpr __int128 kMax = std::numeric_limits<int64_t>::max();
    return {static_cast<int64_t>(std::max(start, kMin)), static_cast<int64_t>(std::min(end, kMax))};
}
}  // namespace

std::optional<std::pair<int64_t, int64_t>> GroupOverBuckets::singleTimeBin(
    const BSONObj& bucket) const {
    const Plan& plan = *_plan;
    BSONElement control = bucket[timeseries::kBucketControlFieldName];
    if (control.type() != BSONType::kObject)
        return std::nullopt;
    BSONElement min = control.Obj()[timeseries::kBucketControlMinFieldName],
                max = control.Obj()[timeseries::kBucketControlMaxFieldName];
    if (min.type() != BSONType::kObject || max.type() != BSONType::kObject)
        return std::nullopt;
    BSONElement lo = min.Obj()[plan.spec.timeField], hi = max.Obj()[plan.spec.timeField];
    if (lo.type() != BSONType::kDate || hi.type() != BSONType::kDate)
        return std::nullopt;
    const int64_t tmin = lo.date().toMillisSinceEpoch(), tmax = hi.date().toMillisSinceEpoch();
    if (tmin > tmax)
        return std::nullopt;
    auto bin = timeBin(tmin, plan.origin, plan.width);
    if (tmax >= bin.second)
        return std::nullopt;
    return std::make_pair(bin.first, tmax);
}

void GroupOverBuckets::buildRuns(const ScalarColumn* time, const BSONElement& meta, size_t n,
                                 bool filtered) {
    const Plan& plan = *_plan;
    uint32_t metaId = plan.keyUsesMeta ? metaIdOf(meta) : 0;
    _runs.clear();
    if (!time) {
        _runs.emplace_back(n, groupForRow(metaId, 0, 0, meta));
        return;
    }
    const int64_t* t = time->ints.data();
    if (std::is_sorted(t, t + n)) {
        // The write path's buckets are sorted on time: each bin's rows are found by binary
        // search, not row by row.
        size_t i = 0, end = n;
        if (filtered) {
            i = std::lower_bound(t, t + n, plan.filterLo) - t;
            end = std::upper_bound(t + i, t + n, plan.filterHi) - t;
        }
        if (i > 0)
            _runs.emplace_back(i, kSkipRows);
        while (i < end) {
            size_t j = end;
            uint32_t g;
            if (!plan.keyUsesTime) {
                g = static_cast<uint32_t>(groupForRow(metaId, 0, 0, meta));
            } else {
                auto bin = timeBin(t[i], plan.origin, plan.width);
                g = static_cast<uint32_t>(groupForRow(metaId, bin.first, t[i], meta));
                j = std::max<size_t>(std::lower_bound(t + i, t + end, bin.second) - t, i + 1);
            }
            _runs.emplace_back(j, g);
            i = j;
        }
        if (end < n)
            _runs.emplace_back(n, kSkipRows);
        return;
    }
    int64_t lo = 1, hi = 0;  // the current time bin: empty
    uint32_t binGroup = 0;
    // Without a time part in the key, the one group of these rows, made when a row is kept.
    uint32_t constGroup = kSkipRows;
    uint32_t cur = kSkipRows;
    for (size_t i = 0; i < n; ++i) {
        const int64_t ti = t[i];
        uint32_t g;
        if (filtered && (ti < plan.filterLo || ti > plan.filterHi)) {
            g = kSkipRows;
        } else if (!plan.keyUsesTime) {
            if (constGroup == kSkipRows)
                constGroup = static_cast<uint32_t>(groupForRow(metaId, 0, 0, meta));
            g = constGroup;
        } else {
            if (!(ti >= lo && ti < hi)) {
                std::tie(lo, hi) = timeBin(ti, plan.origin, plan.width);
                binGroup = static_cast<uint32_t>(groupForRow(metaId, lo, ti, meta));
            }
            g = binGroup;
        }
        if (i > 0 && g != cur)
            _runs.emplace_back(i, cur);
        cur = g;
    }
    _runs.emplace_back(n, cur);
}

void GroupOverBuckets::foldTopBottom(BucketUnpacker* unpacker, size_t a, const ScalarColumn& time) {
    const Plan::Acc& acc = _plan->blockAccs[a];
    // The generic accumulator keeps, of equal sort keys, the first seen: the first row of
    // the run with the latest time ($top on time: -1, $bottom on time: 1) or the earliest.
    const bool latest = acc.bottom == (acc.timeDir > 0);
    const int64_t* t = time.ints.data();
    Variables* vars = &_expCtx->variables;
    size_t from = 0;
    for (auto [end, g] : _runs) {
        if (g == kSkipRows || end == from) {
            from = end;
            continue;
        }
        size_t best = from;
        for (size_t i = from + 1; i < end; ++i)
            if (latest ? t[i] > t[best] : t[i] < t[best])
                best = i;
        BSONObjBuilder b;
        b.appendDate(_plan->spec.timeField, Date_t::fromMillisSinceEpoch(t[best]));
        for (const auto& f : acc.outputFields) {
            if (f == _plan->spec.timeField)
                continue;
            auto col = unpacker->column(f);
            if (col.state == BucketUnpacker::ColumnAccess::State::kScalar)
                appendScalarValue(&b, f, *col.scalar, col.type, best);
        }
        BSONObj row = b.obj();
        ScopedFieldCache fieldCache(vars, row);
        _groups[g].accs[a]->process(_plan->accs[a].expr->evaluate(row, vars));
        from = end;
    }
}

bool GroupOverBuckets::processBlock(BucketUnpacker* unpacker, bool timeFiltered) {
    using State = BucketUnpacker::ColumnAccess::State;
    const Plan& plan = *_plan;
    const size_t n = unpacker->numberOfMeasurements();
    if (n == 0 || n > std::numeric_limits<uint32_t>::max())
        return n == 0;

    // Preflight: every column this group reads must be block-decoded (or absent).
    const ScalarColumn* time = nullptr;
    // Buckets whose time range lies in one bin of the key (most, when bins are no finer than
    // the buckets' span) need no time column: one run.
    std::optional<std::pair<int64_t, int64_t>> oneBin;
    if (plan.keyUsesTime && !timeFiltered)
        oneBin = singleTimeBin(unpacker->bucket());
    if ((plan.keyUsesTime && !oneBin) || timeFiltered || plan.needsTimeColumn) {
        auto tc = unpacker->column(plan.spec.timeField);
        if (tc.state != State::kScalar || tc.type != BSONType::kDate || tc.scalar->size != n ||
            !allPresent(*tc.scalar, 0, n))
            return false;
        time = tc.scalar;
    }
    auto& cols = _cols;
    cols.assign(plan.blockAccs.size(), BucketUnpacker::ColumnAccess());
    // Every kept row of this bucket goes to one group: a $min/$max of a number or date field
    // is the bucket's control.min/max of it (exact for these types, §3.6, as the "$group on
    // meta" rewrite also relies on), and its column is not decoded.
    const bool oneRun = !timeFiltered && (!plan.keyUsesTime || (oneBin && !time));
    auto& bounds = _bounds;
    bounds.assign(plan.blockAccs.size(), BSONElement());
    BSONObj controlMin, controlMax;
    bool controlRead = false;
    for (size_t a = 0; a < plan.blockAccs.size(); ++a) {
        const Plan::Acc& acc = plan.blockAccs[a];
        if (oneRun && (acc.op == Plan::Op::kMin || acc.op == Plan::Op::kMax) &&
            !acc.field.empty() && acc.field != plan.spec.timeField) {
            if (!controlRead) {
                controlRead = true;
                BSONElement control = unpacker->bucket()[timeseries::kBucketControlFieldName];
                if (control.type() == BSONType::kObject) {
                    BSONElement mn = control.Obj()[timeseries::kBucketControlMinFieldName];
                    BSONElement mx = control.Obj()[timeseries::kBucketControlMaxFieldName];
                    if (mn.type() == BSONType::kObject)
                        controlMin = mn.Obj();
                    if (mx.type() == BSONType::kObject)
                        controlMax = mx.Obj();
                }
            }
            BSONElement b =
                (acc.op == Plan::Op::kMax ? controlMax : controlMin).getField(acc.field);
            if (isMinMaxBlockType(b.type())) {
                bounds[a] = b;
                continue;
            }
        }
        if (acc.op == Plan::Op::kTopBottom) {
            for (const auto& f : acc.outputFields)
                if (f != plan.spec.timeField &&
                    unpacker->column(f).state == BucketUnpacker::ColumnAccess::State::kOther)
                    return false;
            continue;
        }
        if (acc.field.empty())
            continue;
        cols[a] = unpacker->column(acc.field);
        if (cols[a].state == State::kOther)
            return false;
        BSONType t = cols[a].type;
        if (cols[a].state == State::kScalar &&
            (acc.op == Plan::Op::kMin || acc.op == Plan::Op::kMax) && !isMinMaxBlockType(t))
            return false;
    }

    if (oneBin && !time) {
        const BSONElement meta = unpacker->meta();
        _runs.clear();
        _runs.emplace_back(n, groupForRow(plan.keyUsesMeta ? metaIdOf(meta) : 0, oneBin->first,
                                          oneBin->second, meta));
    } else {
        buildRuns(time, unpacker->meta(), n, timeFiltered);
    }

    // Fold each accumulator's column run by run.
    for (size_t a = 0; a < plan.blockAccs.size(); ++a) {
        const Plan::Acc& acc = plan.blockAccs[a];
        if (acc.op == Plan::Op::kTopBottom) {
            foldTopBottom(unpacker, a, *time);
            continue;
        }
        if (!bounds[a].eoo()) {
            const Value v(bounds[a]);  // the bucket outlives the fold; process() copies
            // All runs name the one group (oneRun); folding the bound again is harmless.
            for (auto [end, g] : _runs) {
                if (g == kSkipRows)
                    continue;
                auto* target = static_cast<AccumulatorMinMax*>(_groups[g].accs[a].get());
                const size_t memBefore = target->memUsage();
                target->process(v);
                if (const size_t after = target->memUsage(); after > memBefore)
                    chargeMemory(after - memBefore);
            }
            ++_controlBounds;
            continue;
        }
        const auto& col = cols[a];
        if (!acc.field.empty() && col.state == State::kAbsent)
            continue;  // every row missing: ignored by all four operators
        size_t from = 0;
        for (auto [end, g] : _runs) {
            if (g == kSkipRows) {
                from = end;
                continue;
            }
            Accumulator* target = _groups[g].accs[a].get();
            // A sum of values far apart in magnitude moves to the heap (SumState::heapBytes).
            const size_t memBefore = target->memUsage();
            if (acc.field.empty()) {
                static_cast<BlockSum*>(target)->addConstant(acc.constant, end - from);
            } else if (acc.op == Plan::Op::kMin || acc.op == Plan::Op::kMax) {
                minMaxRun(static_cast<AccumulatorMinMax*>(target), *col.scalar, col.type, from,
                          end);
            } else if (col.type == BSONType::kNumberDouble) {
                static_cast<BlockSum*>(target)->addDoubles(*col.scalar, from, end);
            } else if (col.type == BSONType::kNumberInt || col.type == BSONType::kNumberLong) {
                static_cast<BlockSum*>(target)->addLongs(*col.scalar, from, end,
                                                         col.type == BSONType::kNumberLong);
            }  // dates, bools, timestamps: not numbers, ignored by $sum/$avg
            if (const size_t after = target->memUsage(); after > memBefore)
                chargeMemory(after - memBefore);
            from = end;
        }
    }
    return true;
}

}  // namespace mongo
