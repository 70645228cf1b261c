#include "mongo/db/pipeline/document_source_sort.h"

#include <algorithm>

#include "mongo/db/pipeline/collation_keys.h"
#include "mongo/db/pipeline/document_source_limit.h"
#include "mongo/util/assert_util.h"

namespace mongo {

DocumentSourceSort::DocumentSourceSort(std::shared_ptr<ExpressionContext> expCtx,
                                       const BSONObj& spec, long long limit)
    : DocumentSource(std::move(expCtx)), _spec(spec.getOwned()), _limit(limit) {
    uassert(15976, "$sort stage must have at least one sort key", !_spec.isEmpty());
    for (auto e : _spec) {
        if (e.type() == BSONType::kObject)
            continue;
        uassert(15974, "Illegal key in $sort specification: " + e.toString(), e.isNumber());
        uassert(15975, "$sort key ordering must be 1 (for ascending) or -1 (for descending)",
                e.numberDouble() == 1 || e.numberDouble() == -1);
    }
    _pattern = std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(_spec)));
    for (size_t i = 0; i < _pattern->parts().size(); ++i)
        if (_pattern->parts()[i].metaName == SortPattern::kTextScoreMeta && !_textScorePart)
            _textScorePart = i;
}

BSONObj DocumentSourceSort::_sortKey(const BSONObj& doc, const StringComparator* strings) const {
    BSONObj key = getCollatedSortKey(*_pattern, doc, strings);
    const auto& parts = _pattern->parts();
    if (!_textScorePart)
        return key;
    // {$meta: "textScore"}: the score of the document the source returned last.
    const DocumentMetadata* md = _expCtx->variables.metadata;
    uassert(40218, "query requires text score metadata, but it is not available",
            md && md->textScore);
    BSONObjBuilder b;
    size_t i = 0;
    for (BSONElement e : key) {
        if (i < parts.size() && parts[i].metaName == SortPattern::kTextScoreMeta)
            b.append("", *md->textScore);
        else
            b.appendAs(e, "");
        ++i;
    }
    return b.obj();
}

void DocumentSourceSort::populate() {
    _populated = true;
    long long seq = 0;
    size_t bytes = 0;
    const SortPattern* pat = _pattern.get();
    // Keys carry collation comparison keys, so both sorters compare them binary.
    const StringComparator* strings = _expCtx->getCollator();
    auto less = [pat](const Entry& a, const Entry& b) {
        int c = pat->compareSortKeys(a.key, b.key);
        return c != 0 ? c < 0 : a.seq < b.seq;
    };
    if (_limit > 0) {
        // Top-k: a max-heap of the best `_limit` entries.
        while (auto doc = _source->getNext()) {
            _expCtx->checkForInterruptEvery128();
            Entry en{_sortKey(*doc, strings), doc->getOwned(), seq++};
            if (static_cast<long long>(_sorted.size()) < _limit) {
                bytes += en.doc.objsize() + en.key.objsize();
                _sorted.push_back(std::move(en));
                std::push_heap(_sorted.begin(), _sorted.end(), less);
            } else if (less(en, _sorted.front())) {
                std::pop_heap(_sorted.begin(), _sorted.end(), less);
                bytes -= _sorted.back().doc.objsize() + _sorted.back().key.objsize();
                bytes += en.doc.objsize() + en.key.objsize();
                _sorted.back() = std::move(en);
                std::push_heap(_sorted.begin(), _sorted.end(), less);
            }
            if (bytes > static_cast<size_t>(_expCtx->maxMemoryBytes)) {
                uassert(ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed,
                        "Sort exceeded memory limit of " + std::to_string(_expCtx->maxMemoryBytes) +
                            " bytes, but did not opt in to external sorting.",
                        _expCtx->allowDiskUse);
                _usedDisk = true;
            }
        }
        std::sort_heap(_sorted.begin(), _sorted.end(), less);
        return;
    }
    _sorter =
        std::make_unique<ExternalSorter>(_pattern, _expCtx->maxMemoryBytes, _expCtx->allowDiskUse);
    while (auto doc = _source->getNext()) {
        _expCtx->checkForInterruptEvery128();
        _sorter->add(_sortKey(*doc, strings), *doc);
    }
    _sorter->finish();
    _usedDisk = _sorter->usedDisk();
}

std::optional<BSONObj> DocumentSourceSort::getNext() {
    if (!_populated)
        populate();
    std::optional<BSONObj> out;
    BSONObj key;
    if (_sorter) {
        out = _sorter->next(_textScorePart ? &key : nullptr);
    } else if (_pos < _sorted.size()) {
        out = std::move(_sorted[_pos].doc);
        key = std::move(_sorted[_pos].key);
        _sorted[_pos].key = BSONObj();
        ++_pos;
    }
    if (out && _textScorePart) {
        // The document's score came in its key: later stages read their own document's.
        _metadata = DocumentMetadata();
        size_t i = 0;
        for (BSONElement e : key)
            if (i++ == *_textScorePart)
                _metadata.textScore = e.numberDouble();
        _expCtx->variables.metadata = &_metadata;
    }
    if (out)
        setSortKeyMetadata(*_pattern, *out);
    return out;
}

void DocumentSourceSort::serialize(BSONArrayBuilder* out) const {
    {
        BSONObjBuilder b(out->subobjStart());
        b.append("$sort", _spec);
    }
    if (_limit > 0) {
        BSONObjBuilder b(out->subobjStart());
        b.append("$limit", _limit);
    }
}

void DocumentSourceSort::serializeExplained(BSONArrayBuilder* out) const {
    BSONObjBuilder b(out->subobjStart());
    BSONObjBuilder sort(b.subobjStart("$sort"));
    sort.append("sortKey", _spec);
    if (_limit > 0)
        sort.append("limit", _limit);
}

StageList::iterator DocumentSourceSort::optimizeAt(StageList::iterator it, StageList* container) {
    auto next = std::next(it);
    if (next != container->end())
        if (auto* l = dynamic_cast<DocumentSourceLimit*>(next->get())) {
            _limit = _limit > 0 ? std::min(_limit, l->getLimit()) : l->getLimit();
            container->erase(next);
            return it;
        }
    return next;
}

namespace {
const bool kRegistered = [] {
    registerDocumentSource(
        "$sort", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(15973, "the $sort key specification must be an object",
                    e.type() == BSONType::kObject);
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceSort>(expCtx, e.Obj()));
            return out;
        });
    return true;
}();
}  // namespace

}  // namespace mongo
