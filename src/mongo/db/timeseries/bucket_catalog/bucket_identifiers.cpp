#include "mongo/db/timeseries/bucket_catalog/bucket_identifiers.h"

#include <atomic>
#include <functional>
#include <random>

#include "mongo/db/timeseries/metadata.h"

namespace mongo::timeseries::bucket_catalog {
namespace {

uint64_t secureSeed() {
    std::random_device rd;
    return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

std::atomic<uint64_t>& counter() {
    static std::atomic<uint64_t> c{secureSeed()};
    return c;
}

}  // namespace

BucketKey::BucketKey(std::string uuid, BSONObj meta)
    : collectionUUID(std::move(uuid)), metadata(meta.getOwned()) {
    hash = metadata::hash(metaElement()) ^ (std::hash<std::string>{}(collectionUUID)*31);
}

bool BucketKey::operator==(const BucketKey& o) const {
    return hash == o.hash && collectionUUID == o.collectionUUID &&
           metadata::equal(metaElement(), o.metaElement());
}

OID generateBucketOID(Date_t roundedTime) {
    long long ms = roundedTime.toMillisSinceEpoch();
    long long secs = ms / 1000 - (ms % 1000 < 0 ? 1 : 0);
    const uint32_t ts = static_cast<uint32_t>(static_cast<uint64_t>(secs));
    const uint64_t n = counter().fetch_add(1, std::memory_order_relaxed);
    unsigned char bytes[OID::kOIDSize];
    for (int i = 0; i < 4; ++i)
        bytes[i] = static_cast<unsigned char>(ts >> (24 - 8 * i));
    for (int i = 0; i < 8; ++i)
        bytes[4 + i] = static_cast<unsigned char>(n >> (56 - 8 * i));
    return OID(bytes);
}

void resetBucketOIDCounter() {
    counter().store(secureSeed(), std::memory_order_relaxed);
}

}  // namespace mongo::timeseries::bucket_catalog
