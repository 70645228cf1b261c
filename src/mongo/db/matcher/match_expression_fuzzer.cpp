// libFuzzer target: a valid BSON object (after one flags byte) is parsed as a query
// filter, with no collation and with a case-insensitive ICU collation. Parsing must
// succeed or return a Status; a parsed filter is evaluated against fixed documents, then
// serialised; the serialisation must re-parse and the re-parsed filter (with the same
// collator) must match exactly the same documents.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/query/collation/collator_factory.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

void check(bool cond, const char* what, const BSONObj& a = BSONObj(),
           const BSONObj& b = BSONObj()) {
    if (!cond) {
        std::fprintf(stderr, "match_expression_fuzzer: invariant failed: %s\n%s\n%s\n", what,
                     a.toString().c_str(), b.toString().c_str());
        std::abort();
    }
}

const std::vector<BSONObj>& documents() {
    static const std::vector<BSONObj> docs =
        [] {
            std::vector<BSONObj> v;
            v.push_back(BSONObj());
            v.push_back(BSON("_id" << 1 << "a" << 1 << "b"
                                   << "abc"
                                   << "c" << BSON("d" << 2.5)));
            v.push_back(BSON("_id" << 2 << "a" << BSON_ARRAY(1 << 2 << BSON("b" << 3)) << "b"
                                   << "ABC"
                                   << "c"
                                   << BSON_ARRAY(BSON("d" << 1) << BSON("d"
                                                                        << "x"))));
            v.push_back(BSON("_id" << 3 << "a" << BSONNULL << "b"
                                   << BSON_ARRAY("a"
                                                 << "B")
                                   << "t" << Date_t::fromMillisSinceEpoch(1000)));
            v.push_back(BSON("_id"
                             << "x"
                             << "a" << BSON("b" << BSON("c" << 1)) << "b" << true << "c" << 1LL
                             << "loc" << BSON_ARRAY(1.0 << 2.0)));
            return v;
        }();
    return docs;
}

const CollatorInterface* caseInsensitive() {
    static const std::unique_ptr<CollatorInterface> c = [] {
        auto sw = makeCollator(BSON("locale"
                                    << "en"
                                    << "strength" << 2));
        check(sw.isOK(), "the fixed collation parses");
        return std::move(sw.getValue());
    }();
    return c.get();
}

std::vector<bool> matchAll(const MatchExpression& me) {
    std::vector<bool> out;
    for (const auto& d : documents())
        out.push_back(me.matchesBSON(d));
    return out;
}

void runOne(const BSONObj& filter, const CollatorInterface* collator) {
    auto parsed = parseMatchExpression(filter);
    if (!parsed.isOK())
        return;
    auto& me = parsed.getValue();
    if (collator)
        me->setCollator(collator);
    std::vector<bool> before;
    try {
        before = matchAll(*me);
    } catch (const DBException&) {
        return;  // evaluation errors ($mod by zero...) are allowed; they must not crash
    }
    BSONObj ser = me->serialize();
    check(validateBSON(ser.objdata(), ser.objsize()).isOK(), "serialisation is valid BSON", filter,
          ser);
    auto reparsed = parseMatchExpression(ser);
    if (!reparsed.isOK())
        std::fprintf(stderr, "reparse error: %s\n", reparsed.getStatus().toString().c_str());
    check(reparsed.isOK(), "the serialisation re-parses", filter, ser);
    if (collator)
        reparsed.getValue()->setCollator(collator);
    std::vector<bool> after;
    try {
        after = matchAll(*reparsed.getValue());
    } catch (const DBException&) {
        check(false, "the re-parsed filter evaluates like the original", filter, ser);
    }
    check(before == after, "the re-parsed filter matches the same documents", filter, ser);
}

}  // namespace
}  // namespace mongo

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace mongo;
    if (size < 6 || size > 1 << 16)
        return 0;
    const char* p = reinterpret_cast<const char*>(data) + 1;
    if (!validateBSON(p, size - 1).isOK())
        return 0;
    BSONObj filter(p);
    runOne(filter, nullptr);
    if (data[0] & 1)
        runOne(filter, caseInsensitive());
    return 0;
}
