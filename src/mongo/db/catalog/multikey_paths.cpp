#include "mongo/db/catalog/multikey_paths.h"

#include <string>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

namespace {

size_t componentCount(StringData path) {
    size_t n = 1;
    for (char c : path)
        n += c == '.';
    return n;
}

/** The prefix of `path` up to and including component `k`. */
std::string prefixThrough(StringData path, size_t k) {
    size_t pos = 0;
    for (size_t i = 0; i <= k; ++i) {
        size_t dot = path.find('.', pos);
        if (dot == StringData::npos)
            return std::string(path);
        pos = dot + 1;
    }
    return std::string(path.substr(0, pos - 1));
}

}  // namespace

bool indexTracksMultikeyPaths(const BSONObj& keyPattern) {
    for (auto f : keyPattern) {
        if (f.type() == BSONType::kString &&
            (f.valueStringData() == "2d" || f.valueStringData() == "text"))
            return false;
        StringData name = f.fieldNameStringData();
        if (name == "$**" || name.ends_with(".$**"))
            return false;
    }
    return true;
}

bool mergeMultikeyPaths(MultikeyPaths* paths, const MultikeyPaths& more) {
    if (paths->size() < more.size())
        paths->resize(more.size());
    bool changed = false;
    for (size_t i = 0; i < more.size(); ++i)
        for (size_t c : more[i])
            changed |= (*paths)[i].insert(c).second;
    return changed;
}

BSONObj multikeyPathsToCatalog(const BSONObj& keyPattern, const MultikeyPaths& paths) {
    BSONObjBuilder b;
    size_t i = 0;
    for (auto f : keyPattern) {
        std::string bytes(componentCount(f.fieldNameStringData()), '\0');
        if (i < paths.size())
            for (size_t c : paths[i])
                if (c < bytes.size())
                    bytes[c] = 1;
        b.appendBinData(f.fieldNameStringData(), static_cast<int>(bytes.size()), BinDataGeneral,
                        bytes.data());
        ++i;
    }
    return b.obj();
}

MultikeyPaths multikeyPathsFromCatalog(const BSONObj& keyPattern, const BSONObj& stored) {
    MultikeyPaths paths;
    for (auto f : keyPattern) {
        MultikeyComponents components;
        BSONElement e = stored.getField(f.fieldNameStringData());
        if (e.type() == BSONType::kBinData) {
            int len = 0;
            const char* data = e.binData(len);
            for (int c = 0; c < len; ++c)
                if (data[c])
                    components.insert(static_cast<size_t>(c));
        }
        paths.push_back(std::move(components));
    }
    return paths;
}

BSONObj multikeyPathsForExplain(const BSONObj& keyPattern, const MultikeyPaths& paths) {
    BSONObjBuilder b;
    size_t i = 0;
    for (auto f : keyPattern) {
        BSONArrayBuilder arr;
        if (i < paths.size())
            for (size_t c : paths[i])
                arr.append(prefixThrough(f.fieldNameStringData(), c));
        b.append(f.fieldNameStringData(), arr.arr());
        ++i;
    }
    return b.obj();
}

}  // namespace mongo
