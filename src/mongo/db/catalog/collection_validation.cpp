#include "mongo/db/catalog/collection_validation.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/db/storage/key_string.h"
#include "mongo/logv2/log.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** True when `s` is well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF). */
bool isValidUtf8(StringData s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const auto* end = p + s.size();
    while (p < end) {
        const unsigned char c = *p;
        int n = 0;
        uint32_t cp = 0;
        if (c < 0x80) {
            ++p;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            n = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (end - p <= n)
            return false;
        for (int i = 1; i <= n; ++i) {
            if ((p[i] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (p[i] & 0x3F);
        }
        static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
        if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        p += n + 1;
    }
    return true;
}

/** The first string value (at any depth) that is not UTF-8, as an error; OK if none. */
Status checkUtf8Values(const BSONObj& obj) {
    for (auto e : obj) {
        switch (e.type()) {
            case BSONType::kString:
            case BSONType::kCode:
            case BSONType::kSymbol:
                if (!isValidUtf8(e.valueStringData()))
                    return Status(ErrorCodes::NonConformantBSON,
                                  "Found string that doesn't follow UTF-8 encoding in field '" +
                                      std::string(e.fieldNameStringData()) + "'");
                break;
            case BSONType::kObject:
            case BSONType::kArray:
                if (Status s = checkUtf8Values(e.Obj()); !s.isOK())
                    return s;
                break;
            default:
                break;
        }
    }
    return Status::OK();
}

/** One index entry: canonical key bytes (KeyString, no type bits) and the record. */
using KeyEntry = std::pair<std::string, int64_t>;

struct IndexCheck {
    const IndexEntry* index = nullptr;
    Ordering ordering;
    std::map<KeyEntry, BSONObj> expected;  // from the records: key bytes -> key, with _id
    long long keysTraversed = 0;
    bool valid = true;
    /**
     * The _id index of a clustered collection (time-series buckets): checked like any index
     * but, as upstream's clustered collections have no such index, not listed in nIndexes,
     * keysPerIndex or indexDetails.
     */
    bool clustered = false;
};

class Validator {
public:
    Validator(OperationContext* opCtx, const Collection& coll, const ValidateOptions& options)
        : _opCtx(opCtx), _coll(coll), _options(options) {
        for (const auto& idx : coll.indexes()) {
            if (!idx->sdi)
                continue;
            IndexCheck c{idx.get(), Ordering::make(idx->desc.keyPattern)};
            c.clustered = idx->desc.spec["clustered"].trueValue();
            _indexes.push_back(std::move(c));
        }
    }

    bool run(BSONObjBuilder* out) {
        traverseRecords();
        for (auto& c : _indexes)
            traverseIndex(&c);
        const long long fastCount = _coll.numRecords(_opCtx);
        if (fastCount != _nrecords && _options.enforceFastCount)
            addError("fast count (" + std::to_string(fastCount) +
                     ") does not match number of records (" + std::to_string(_nrecords) +
                     ") for collection '" + _coll.ns().ns() + "'");
        if (_extra.arrSize() > 0)
            addError("Detected " + std::to_string(_extra.arrSize()) + " extra index entries.");
        if (_missing.arrSize() > 0)
            addError("Detected " + std::to_string(_missing.arrSize()) + " missing index entries.");
        // As upstream's foreground validate: a clean pass replaces the count and data size,
        // which are approximate after an unclean shutdown (the size storer's last flush).
        if (_valid)
            _coll.recordStore()->updateStatsAfterRepair(_nrecords, _dataSize);
        appendResults(out);
        return _valid;
    }

private:
    void addError(std::string msg) {
        _valid = false;
        _errors.push_back(std::move(msg));
    }
    void addWarningOnce(StringData msg) {
        for (const auto& w : _warnings)
            if (w == msg)
                return;
        _warnings.emplace_back(msg);
    }

    void traverseRecords() {
        auto cursor = _coll.recordStore()->getCursor(_opCtx->recoveryUnit());
        while (auto rec = cursor->next()) {
            _opCtx->checkForInterrupt();
            ++_nrecords;
            _dataSize += rec->data.objsize();
            validateRecord(*rec);
        }
    }

    void validateRecord(const Record& rec) {
        const BSONObj& doc = rec.data;
        Status s = doc.objsize() >= 5
                       ? validateBSON(doc.objdata(), static_cast<std::size_t>(doc.objsize()))
                       : Status(ErrorCodes::InvalidBSON, "record shorter than a BSON document");
        if (!s.isOK()) {
            LOGV2(4835001, "Document corruption details - Document validation failed with error",
                  BSON("recordId" << rec.id.getLong() << "error" << s.toString()));
            if (_nInvalid++ == 0)
                addError(std::string(kInvalidDocumentsError));
            _corruptRecords.append(rec.id.getLong());
            return;  // its keys cannot be computed: any index entries for it count as extra
        }
        if (_options.checkBSONConformance) {
            if (Status u = checkUtf8Values(doc); !u.isOK()) {
                LOGV2_WARNING(6825900, "Document is not conformant to BSON specifications",
                              BSON("recordId" << rec.id.getLong() << "reason" << u.toString()));
                ++_nNonCompliant;
                addWarningOnce(kBSONNonConformantWarning);
            }
        }
        bool compliant = true;
        try {
            _coll.checkValidation(_opCtx, doc);
        } catch (const DBException& ex) {
            if (ex.code() != ErrorCodes::DocumentValidationFailure)
                throw;
            LOGV2_WARNING(5363500, "Document is not compliant with the collection's schema",
                          BSON("ns" << _coll.ns().ns() << "recordId" << rec.id.getLong()));
            ++_nNonCompliant;
            compliant = false;
            addWarningOnce(kSchemaValidationFailedWarning);
        }
        if (compliant && _options.recordCheck) {
            if (Status c = _options.recordCheck(doc); !c.isOK()) {
                LOGV2_WARNING(6698300, "Document is not compliant with time-series specifications",
                              BSON("ns" << _coll.ns().ns() << "recordId" << rec.id.getLong()
                                        << "reason" << c.toString()));
                ++_nNonCompliant;
                addWarningOnce(_options.recordCheckWarning);
            }
        }
        for (auto& c : _indexes)
            addExpectedKeys(&c, rec.id, doc);
    }

    void addExpectedKeys(IndexCheck* c, RecordId id, const BSONObj& doc) {
        if (!c->index->covers(doc))
            return;
        IndexKeys keys;
        Status s = c->index->desc.getKeys(doc, &keys);
        if (!s.isOK()) {
            // The write path refuses such documents, so the index cannot hold keys for it.
            addError("Document with " + id.toString() + " cannot be indexed by index '" +
                     c->index->desc.name + "': " + s.toString());
            return;
        }
        for (const auto& key : keys.keys) {
            key_string::Builder ks(c->ordering, key);
            c->expected.emplace(KeyEntry{ks.getBuffer(), id.getLong()},
                                BSON("key" << key << "_id" << doc["_id"]));
        }
    }

    /** Reads every entry of the index; each is removed from `expected` or reported extra. */
    void traverseIndex(IndexCheck* c) {
        const IndexDescriptor& d = c->index->desc;
        auto cursor = c->index->sdi->newCursor(_opCtx->recoveryUnit());
        while (auto entry = cursor->next()) {
            _opCtx->checkForInterrupt();
            ++c->keysTraversed;
            key_string::Builder ks(c->ordering, entry->key);
            auto it = c->expected.find(KeyEntry{ks.getBuffer(), entry->loc.getLong()});
            if (it != c->expected.end()) {
                c->expected.erase(it);
                continue;
            }
            c->valid = false;
            BSONObjBuilder b(_extra.subobjStart());
            b.append("indexName", d.name);
            b.append("recordId", entry->loc.getLong());
            b.append("indexKey", namedKey(d.keyPattern, entry->key));
        }
        for (const auto& [k, info] : c->expected) {
            c->valid = false;
            BSONObjBuilder b(_missing.subobjStart());
            b.append("indexName", d.name);
            b.append("recordId", k.second);
            if (info["_id"].ok())
                b.appendAs(info["_id"], "idKey");
            b.append("indexKey", namedKey(d.keyPattern, info["key"].Obj()));
        }
        if (!c->valid)
            LOGV2_WARNING(4, "Index has inconsistencies",
                          BSON("ns" << _coll.ns().ns() << "index" << d.name));
    }

    /** {"": v, ...} with the key pattern's field names ({a: v, ...}). */
    static BSONObj namedKey(const BSONObj& keyPattern, const BSONObj& key) {
        BSONObjBuilder b;
        auto names = keyPattern.begin();
        for (auto e : key) {
            b.appendAs(e, names.more() ? (*names).fieldNameStringData() : StringData(""));
            if (names.more())
                ++names;
        }
        return b.obj();
    }

    void appendResults(BSONObjBuilder* out) {
        out->appendNumber("nInvalidDocuments", _nInvalid);
        out->appendNumber("nNonCompliantDocuments", _nNonCompliant);
        out->appendNumber("nrecords", _nrecords);
        int nIndexes = 0;
        for (const auto& c : _indexes)
            nIndexes += c.clustered ? 0 : 1;
        out->append("nIndexes", nIndexes);
        {
            BSONObjBuilder keys(out->subobjStart("keysPerIndex"));
            for (const auto& c : _indexes)
                if (!c.clustered)
                    keys.appendNumber(c.index->desc.name, c.keysTraversed);
        }
        {
            BSONObjBuilder details(out->subobjStart("indexDetails"));
            for (const auto& c : _indexes)
                if (!c.clustered)
                    details.append(c.index->desc.name, BSON("valid" << c.valid));
        }
        out->append("valid", _valid);
        out->append("repaired", false);
        {
            BSONArrayBuilder w(out->subarrayStart("warnings"));
            for (const auto& s : _warnings)
                w.append(s);
        }
        {
            BSONArrayBuilder e(out->subarrayStart("errors"));
            for (const auto& s : _errors)
                e.append(s);
        }
        out->appendArray("extraIndexEntries", _extra.arr());
        out->appendArray("missingIndexEntries", _missing.arr());
        out->appendArray("corruptRecords", _corruptRecords.arr());
    }

    OperationContext* _opCtx;
    const Collection& _coll;
    const ValidateOptions& _options;
    std::vector<IndexCheck> _indexes;
    long long _nrecords = 0, _nInvalid = 0, _nNonCompliant = 0;
    long long _dataSize = 0;
    bool _valid = true;
    std::vector<std::string> _warnings, _errors;
    BSONArrayBuilder _extra, _missing, _corruptRecords;
};

}  // namespace

bool validateCollection(OperationContext* opCtx, const Collection& coll,
                        const ValidateOptions& options, BSONObjBuilder* out) {
    Validator v(opCtx, coll, options);
    return v.run(out);
}

}  // namespace mongo
