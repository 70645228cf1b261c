#include "mongo/logv2/log.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace {

TEST(Log, LinesAreStructuredJson) {
    logv2::setThreadName("test-thread");
    LOGV2(12345, "Hello \"there\"", BSON("port" << 27017));
    auto lines = logv2::recentLines();
    ASSERT_FALSE(lines.empty());
    const std::string& l = lines.back();
    EXPECT_NE(l.find("\"s\":\"I\""), std::string::npos) << l;
    EXPECT_NE(l.find("\"id\":12345"), std::string::npos) << l;
    EXPECT_NE(l.find("\"ctx\":\"test-thread\""), std::string::npos) << l;
    EXPECT_NE(l.find("\"msg\":\"Hello \\\"there\\\"\""), std::string::npos) << l;
    EXPECT_NE(l.find("\"attr\":{\"port\":27017}"), std::string::npos) << l;
}

}  // namespace
}  // namespace mongo
