#include "mongo/db/cursor_manager.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "mongo/db/storage/recovery_unit.h"  // ClientCursor owns one

namespace mongo {
namespace {

std::unique_ptr<ClientCursor> cursor(bool noTimeout) {
    auto c = std::make_unique<ClientCursor>();
    c->nss = NamespaceString("test", "c");
    c->noCursorTimeout = noTimeout;
    return c;
}

TEST(CursorManager, IdleCursorsTimeOutExceptNoCursorTimeoutOnes) {
    CursorManager cm;
    long long doomed = cm.registerCursor(cursor(false));
    long long kept = cm.registerCursor(cursor(true));
    EXPECT_EQ(1u, cm.numOpenNoTimeout());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(1, cm.timeoutCursors(5));
    EXPECT_EQ(1, cm.totalTimedOut());
    EXPECT_EQ(ErrorCodes::CursorNotFound,
              cm.checkOut(doomed, NamespaceString("test", "c")).getStatus().code());
    EXPECT_TRUE(cm.checkOut(kept, NamespaceString("test", "c")).isOK());
}

TEST(CursorManager, CheckedOutCursorsNeverTimeOutAndStillCountAsNoTimeout) {
    CursorManager cm;
    long long id = cm.registerCursor(cursor(true));
    long long busy = cm.registerCursor(cursor(false));
    auto out = cm.checkOut(busy, NamespaceString("test", "c"));
    ASSERT_TRUE(out.isOK());
    auto pinnedNoTimeout = cm.checkOut(id, NamespaceString("test", "c"));
    ASSERT_TRUE(pinnedNoTimeout.isOK());
    EXPECT_EQ(1u, cm.numOpenNoTimeout());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(0, cm.timeoutCursors(5));
    EXPECT_EQ(2u, cm.numOpen());
    int idle = 0;
    cm.forEachIdle([&](const ClientCursor&) { ++idle; });
    EXPECT_EQ(0, idle);
}

}  // namespace
}  // namespace mongo
