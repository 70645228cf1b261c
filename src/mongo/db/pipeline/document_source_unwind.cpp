// $unwind: one output document per element of the array at a path.
#include "mongo/db/pipeline/document_path.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

class DocumentSourceUnwind final : public DocumentSource {
public:
    DocumentSourceUnwind(std::shared_ptr<ExpressionContext> expCtx, std::string path, bool preserve,
                         std::string indexField)
        : DocumentSource(std::move(expCtx)),
          _path(std::move(path)),
          _parts(splitFieldPath(_path)),
          _preserve(preserve),
          _indexField(std::move(indexField)) {
        if (!_indexField.empty())
            _indexParts = splitFieldPath(_indexField);
    }

    std::optional<BSONObj> getNext() override {
        while (true) {
            if (_current) {
                if (_pos < _elems.size()) {
                    _expCtx->checkForInterruptEvery128();
                    long long i = static_cast<long long>(_pos);
                    BSONObj out = setNestedField(*_current, _parts, _elems[_pos++]);
                    if (!_indexParts.empty())
                        out = setNestedField(out, _indexParts, Value(i));
                    return out;
                }
                _current.reset();
                _elems.clear();
            }
            auto next = _source->getNext();
            if (!next)
                return std::nullopt;
            std::optional<BSONObj> doc = next->getOwned();
            Value v = getNestedField(*doc, _parts);
            if (v.isArray()) {
                auto elems = v.getArray();
                if (!elems.empty()) {
                    _current = *doc;  // owns the buffer the elements point into
                    _elems = std::move(elems);
                    _pos = 0;
                    continue;
                }
                if (!_preserve)
                    continue;
                BSONObj out = setNestedField(*doc, _parts, Value());
                return withNullIndex(out);
            }
            if (v.nullish()) {
                if (!_preserve)
                    continue;
                return withNullIndex(*doc);
            }
            // A non-array value unwinds to itself.
            if (_indexParts.empty())
                return doc;
            return setNestedField(*doc, _indexParts, Value::null());
        }
    }

    const char* getSourceName() const override {
        return "$unwind";
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        BSONObjBuilder s(b.subobjStart("$unwind"));
        s.append("path", "$" + _path);
        if (!_indexField.empty())
            s.append("includeArrayIndex", _indexField);
        if (_preserve)
            s.append("preserveNullAndEmptyArrays", true);
    }

private:
    BSONObj withNullIndex(const BSONObj& doc) {
        if (_indexParts.empty())
            return doc;
        return setNestedField(doc, _indexParts, Value::null());
    }

    std::string _path;
    std::vector<std::string> _parts;
    bool _preserve;
    std::string _indexField;
    std::vector<std::string> _indexParts;
    std::optional<BSONObj> _current;
    std::vector<Value> _elems;
    size_t _pos = 0;
};

const bool kRegistered = [] {
    registerDocumentSource(
        "$unwind", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            std::string path, index;
            bool preserve = false;
            if (e.type() == BSONType::kString) {
                path = e.str();
            } else {
                uassert(15981,
                        "expected either a string or an object as specification for $unwind stage, "
                        "got " +
                            typeNameOf(Value(e)),
                        e.type() == BSONType::kObject);
                bool havePath = false;
                for (auto f : e.Obj()) {
                    StringData n = f.fieldNameStringData();
                    if (n == "path") {
                        uassert(28808,
                                "expected a string as the path for $unwind stage, got " +
                                    typeNameOf(Value(f)),
                                f.type() == BSONType::kString);
                        path = f.str();
                        havePath = true;
                    } else if (n == "preserveNullAndEmptyArrays") {
                        uassert(28809,
                                "expected a boolean for the preserveNullAndEmptyArrays option "
                                "to $unwind stage, got " +
                                    typeNameOf(Value(f)),
                                f.type() == BSONType::kBool);
                        preserve = f.boolean();
                    } else if (n == "includeArrayIndex") {
                        uassert(28810,
                                "expected a non-empty string for the includeArrayIndex "
                                " option to $unwind stage, got " +
                                    typeNameOf(Value(f)),
                                f.type() == BSONType::kString && !f.valueStringData().empty());
                        index = f.str();
                        uassert(28822,
                                "includeArrayIndex option to $unwind stage should not be "
                                "prefixed with a '$': " +
                                    index,
                                index[0] != '$');
                    } else {
                        uasserted(28811, "unrecognized option to $unwind stage: " + std::string(n));
                    }
                }
                uassert(28812, "no path specified to $unwind stage", havePath);
            }
            uassert(28818, "path option to $unwind stage should be prefixed with a '$': " + path,
                    !path.empty() && path[0] == '$');
            std::vector<StagePtr> out;
            out.push_back(
                std::make_unique<DocumentSourceUnwind>(expCtx, path.substr(1), preserve, index));
            return out;
        });
    return true;
}();

}  // namespace
}  // namespace mongo
