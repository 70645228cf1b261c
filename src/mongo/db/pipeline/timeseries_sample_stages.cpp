#include "mongo/db/pipeline/timeseries_sample_stages.h"

#include <algorithm>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/exec/stages.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/document_source_internal_unpack_bucket.h"
#include "mongo/db/pipeline/timeseries_sample.h"
#include "mongo/idl/server_parameters_gen.h"

namespace mongo {

namespace {

/** Bucket reads of the trial: enough to estimate how full the buckets are. */
constexpr long long kTrialBucketReads = 500;
/** Random ids that may miss in a row before the id range counts as too sparse. */
constexpr int kMaxConsecutiveMisses = 1000;

/** QUEUED_DATA: documents produced earlier (the trial's results). */
class QueuedDataStage : public PlanStage {
public:
    explicit QueuedDataStage(std::vector<WorkingMember> members) : _members(std::move(members)) {}
    std::optional<WorkingMember> next(OperationContext*) override {
        ++_stats.works;
        if (_pos >= _members.size())
            return std::nullopt;
        ++_stats.advanced;
        return std::move(_members[_pos++]);
    }
    std::string stageName() const override {
        return "QUEUED_DATA";
    }

private:
    std::vector<WorkingMember> _members;
    size_t _pos = 0;
};

/** OR: its children's results one child after the other. */
class OrStage : public PlanStage {
public:
    OrStage(std::unique_ptr<PlanStage> a, std::unique_ptr<PlanStage> b) {
        _children.push_back(std::move(a));
        _children.push_back(std::move(b));
    }
    std::optional<WorkingMember> next(OperationContext* opCtx) override {
        for (; _current < _children.size(); ++_current) {
            ++_stats.works;
            if (auto m = _children[_current]->next(opCtx)) {
                ++_stats.advanced;
                return m;
            }
        }
        return std::nullopt;
    }
    std::string stageName() const override {
        return "OR";
    }

private:
    size_t _current = 0;
};

}  // namespace

RandomBucketStage::RandomBucketStage(std::shared_ptr<Collection> coll, std::mt19937_64* gen)
    : _coll(std::move(coll)), _gen(gen) {}

std::optional<WorkingMember> RandomBucketStage::next(OperationContext* opCtx) {
    RecordStore* rs = _coll->recordStore();
    if (_coll->recordIdsFromIdTime()) {
        // Time-keyed RecordIds are sparse: a random id would rarely name a bucket.
        ++_stats.works;
        auto r = rs->randomRecord(opCtx->recoveryUnit());
        if (!r)
            return std::nullopt;
        ++_stats.advanced;
        return WorkingMember{r->id, std::move(r->data)};
    }
    if (!_range) {
        auto first = rs->getCursor(opCtx->recoveryUnit(), true)->next();
        auto last = rs->getCursor(opCtx->recoveryUnit(), false)->next();
        if (!first || !last)
            return std::nullopt;
        _range = std::make_pair(first->id.getLong(), last->id.getLong());
    }
    std::uniform_int_distribution<std::int64_t> pick(_range->first, _range->second);
    for (int miss = 0; miss < kMaxConsecutiveMisses; ++miss) {
        ++_stats.works;
        RecordId id(pick(*_gen));
        BSONObj bucket;
        if (!rs->findRecord(opCtx->recoveryUnit(), id, &bucket))
            continue;
        ++_stats.advanced;
        return WorkingMember{id, std::move(bucket)};
    }
    return std::nullopt;
}

SampleFromTimeseriesBucketStage::SampleFromTimeseriesBucketStage(std::unique_ptr<PlanStage> child,
                                                                 BucketSpec spec, long long size,
                                                                 long long bucketMaxCount,
                                                                 std::mt19937_64* gen)
    : _unpacker(std::move(spec)), _size(size), _bucketMaxCount(bucketMaxCount), _gen(gen) {
    _children.push_back(std::move(child));
}

std::optional<WorkingMember> SampleFromTimeseriesBucketStage::next(OperationContext* opCtx) {
    const long long maxReads = 1000 + 200 * _size;
    std::uniform_int_distribution<long long> pickSlot(0, _bucketMaxCount - 1);
    while (static_cast<long long>(_taken.size()) < _size && !_failed) {
        ++_stats.works;
        if (_bucketsRead >= maxReads) {
            _failed = true;
            break;
        }
        auto bucket = _children[0]->next(opCtx);
        if (!bucket) {
            _failed = true;
            break;
        }
        ++_bucketsRead;
        _unpacker.reset(bucket->doc);
        long long slot = pickSlot(*_gen);
        if (slot >= static_cast<long long>(_unpacker.numberOfMeasurements())) {
            ++_discarded;  // an empty slot
            continue;
        }
        ++_dupsTested;
        if (!_taken.insert({bucket->id.getLong(), slot}).second) {
            ++_dupsDropped;
            continue;
        }
        for (long long i = 0; i < slot; ++i)
            _unpacker.getNext();
        ++_stats.advanced;
        return WorkingMember{bucket->id, _unpacker.getNext()};
    }
    return std::nullopt;
}

void SampleFromTimeseriesBucketStage::appendExecutionStats(BSONObjBuilder* bob) const {
    bob->appendNumber("nBucketsUnpacked", _bucketsRead);
    bob->appendNumber("nBucketsDiscarded", _discarded);
    bob->appendNumber("dupsTested", _dupsTested);
    bob->appendNumber("dupsDropped", _dupsDropped);
}

UnpackBucketStage::UnpackBucketStage(std::unique_ptr<PlanStage> child, BucketSpec spec)
    : _unpacker(std::move(spec)) {
    _children.push_back(std::move(child));
}

std::optional<WorkingMember> UnpackBucketStage::next(OperationContext* opCtx) {
    while (true) {
        ++_stats.works;
        if (_unpacker.hasNext()) {
            ++_index;
            ++_stats.advanced;
            return WorkingMember{_bucketId, _unpacker.getNext()};
        }
        auto bucket = _children[0]->next(opCtx);
        if (!bucket)
            return std::nullopt;
        ++_bucketsUnpacked;
        _bucketId = bucket->id;
        _index = -1;
        _unpacker.reset(std::move(bucket->doc));
    }
}

TimeseriesSampleTrialStage::TimeseriesSampleTrialStage(OperationContext* opCtx,
                                                       std::shared_ptr<Collection> coll,
                                                       BucketSpec spec, long long size,
                                                       long long bucketMaxCount)
    : _coll(std::move(coll)), _spec(std::move(spec)), _size(size), _gen(std::random_device{}()) {
    auto sample = std::make_unique<SampleFromTimeseriesBucketStage>(
        std::make_unique<RandomBucketStage>(_coll, &_gen), _spec, size, bucketMaxCount, &_gen);
    std::vector<WorkingMember> queued;
    while (sample->bucketsRead() < kTrialBucketReads) {
        auto m = sample->next(opCtx);
        if (!m)
            break;
        queued.push_back(std::move(*m));
    }
    const bool complete = !sample->failed() && static_cast<long long>(queued.size()) >= size;
    // ARHASH pays off when buckets hold on average more than timeseriesBucketMinCount
    // measurements (reads per result < bucketMaxCount / minCount).
    const double minRatio = static_cast<double>(gTimeseriesBucketMinCount.load()) /
                            static_cast<double>(std::max<long long>(bucketMaxCount, 1));
    const double ratio =
        sample->bucketsRead() == 0
            ? 0.0
            : static_cast<double>(queued.size()) / static_cast<double>(sample->bucketsRead());
    if (complete || (!sample->failed() && ratio > minRatio)) {
        _arhash = sample.get();
        auto queue = std::make_unique<QueuedDataStage>(std::move(queued));
        if (complete) {
            _children.push_back(std::move(queue));
            _arhashDone = std::move(sample);  // finished: kept for its counters only
        } else {
            _children.push_back(std::make_unique<OrStage>(std::move(queue), std::move(sample)));
        }
        return;
    }
    _trialBuckets = sample->bucketsRead();
    auto unpack = std::make_unique<UnpackBucketStage>(
        std::make_unique<CollectionScanStage>(_coll, true, nullptr), _spec);
    _unpack = unpack.get();
    _children.push_back(std::move(unpack));
}

long long TimeseriesSampleTrialStage::bucketsUnpacked() const {
    return _trialBuckets + (_arhash ? _arhash->bucketsRead() : 0) +
           (_unpack ? _unpack->bucketsUnpacked() : 0);
}

void TimeseriesSampleTrialStage::_runBackup(OperationContext* opCtx) {
    _backupRan = true;
    if (!_unpack) {
        // ARHASH failed midway (e.g. a sparse id range): the rest comes from a scan.
        auto unpack = std::make_unique<UnpackBucketStage>(
            std::make_unique<CollectionScanStage>(_coll, true, nullptr), _spec);
        _unpack = unpack.get();
        _children.push_back(std::move(unpack));
    }
    UnpackBucketStage* unpack = _unpack;
    const auto* taken = _arhash ? &_arhash->taken() : nullptr;
    auto next = [&]() -> std::optional<BSONObj> {
        while (auto m = unpack->next(opCtx)) {
            if ((++_scanned & 127) == 0)
                opCtx->checkForInterrupt();
            if (taken && taken->count({m->id.getLong(), unpack->index()}))
                continue;  // already returned by ARHASH
            return std::move(m->doc);
        }
        return std::nullopt;
    };
    for (auto& d : timeseries_sample::reservoirSample(next, _size - _returned, &_gen))
        _backupOut.push_back(WorkingMember{RecordId(), std::move(d)});
}

std::optional<WorkingMember> TimeseriesSampleTrialStage::next(OperationContext* opCtx) {
    ++_stats.works;
    if (_arhash && !_backupRan) {
        if (auto m = _children[0]->next(opCtx)) {
            ++_returned;
            ++_stats.advanced;
            return m;
        }
        if (!_arhash->failed())
            return std::nullopt;
    }
    if (!_backupRan)
        _runBackup(opCtx);
    if (_backupPos >= _backupOut.size())
        return std::nullopt;
    ++_returned;
    ++_stats.advanced;
    return std::move(_backupOut[_backupPos++]);
}

std::unique_ptr<PlanExecutor> planTimeseriesSample(OperationContext* opCtx,
                                                   const std::shared_ptr<Collection>& coll,
                                                   Pipeline* pipeline,
                                                   const FindPlanParams& params) {
    if (!coll || !params.filter.isEmpty() || !params.sort.isEmpty() || params.skip > 0 ||
        params.limit > 0 || !params.hint.isEmpty() || !params.hintName.empty() ||
        pipeline->stages().empty())
        return nullptr;
    auto* unpack =
        dynamic_cast<DocumentSourceInternalUnpackBucket*>(pipeline->stages().front().get());
    if (!unpack || !unpack->sampleSize())
        return nullptr;
    const long long size = *unpack->sampleSize();
    const long long maxCount = gTimeseriesBucketMaxCount.load();
    if (!timeseries_sample::useArhash(size, coll->numRecords(opCtx), maxCount))
        return nullptr;
    auto trial = std::make_unique<TimeseriesSampleTrialStage>(opCtx, coll, unpack->bucketSpec(),
                                                              size, maxCount);
    const TimeseriesSampleTrialStage* t = trial.get();
    unpack->setSampledByPlan([t] { return t->bucketsUnpacked(); });
    return std::make_unique<PlanExecutor>(std::move(trial));
}

}  // namespace mongo
