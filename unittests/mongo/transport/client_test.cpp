#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/transport/client.h"

namespace mongo {
namespace {

TEST(Client, DescribesItselfByConnectionId) {
    Client c(12, "127.0.0.1:5555", "127.0.0.1:27017");
    EXPECT_EQ(c.desc(), "conn12");
    EXPECT_EQ(c.connectionId(), 12);
    EXPECT_EQ(c.remote(), "127.0.0.1:5555");
    EXPECT_EQ(c.local(), "127.0.0.1:27017");
}

TEST(Client, MetadataIsSetOnlyOnce) {
    Client c(1, "a", "b");
    EXPECT_FALSE(c.hasClientMetadata());
    EXPECT_TRUE(c.clientMetadata().isEmpty());
    EXPECT_TRUE(c.setClientMetadata(BSON("driver" << BSON("name"
                                                          << "x"))));
    EXPECT_FALSE(c.setClientMetadata(BSON("driver" << BSON("name"
                                                           << "y"))));
    EXPECT_EQ(c.clientMetadata().getFieldDotted("driver.name").str(), "x");
}

TEST(Client, CurrentIsPerThread) {
    Client c(1, "a", "b");
    EXPECT_EQ(Client::getCurrent(), nullptr);
    Client::setCurrent(&c);
    EXPECT_EQ(Client::getCurrent(), &c);
    Client::setCurrent(nullptr);
}

}  // namespace
}  // namespace mongo
