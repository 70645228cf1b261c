#include "mongo/db/operation_context.h"

#include <gtest/gtest.h>

#include "mongo/db/service_context.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

ErrorCodes::Error interruptCode(const OperationContext& opCtx) {
    try {
        opCtx.checkForInterrupt();
    } catch (const DBException& ex) {
        return ex.code();
    }
    return ErrorCodes::OK;
}

TEST(OperationContext, NothingDueDoesNotThrow) {
    ServiceContext sc;
    OperationContext opCtx(&sc, nullptr, 1);
    EXPECT_EQ(ErrorCodes::OK, interruptCode(opCtx));
    EXPECT_FALSE(opCtx.isKillPending());
}

TEST(OperationContext, KilledOperationThrowsInterrupted) {
    ServiceContext sc;
    OperationContext opCtx(&sc, nullptr, 1);
    opCtx.markKilled();
    EXPECT_TRUE(opCtx.isKillPending());
    EXPECT_EQ(ErrorCodes::Interrupted, interruptCode(opCtx));
}

TEST(OperationContext, FirstKillCodeWins) {
    ServiceContext sc;
    OperationContext opCtx(&sc, nullptr, 1);
    opCtx.markKilled(ErrorCodes::ClientDisconnect);
    opCtx.markKilled(ErrorCodes::Interrupted);
    EXPECT_EQ(ErrorCodes::ClientDisconnect, interruptCode(opCtx));
}

TEST(OperationContext, ClientHangUpThrowsClientDisconnect) {
    ServiceContext sc;
    OperationContext opCtx(&sc, nullptr, 1);
    std::atomic<bool> hungUp{false};
    opCtx.setClientDisconnectedFlag(&hungUp);
    EXPECT_EQ(ErrorCodes::OK, interruptCode(opCtx));
    hungUp = true;
    EXPECT_EQ(ErrorCodes::ClientDisconnect, interruptCode(opCtx));
}

TEST(OperationContext, ShutdownThrowsInterruptedAtShutdownBeforeAnyKill) {
    ServiceContext sc;
    OperationContext opCtx(&sc, nullptr, 1);
    opCtx.markKilled();
    sc.shuttingDown = true;
    EXPECT_EQ(ErrorCodes::InterruptedAtShutdown, interruptCode(opCtx));
}

TEST(OperationContext, PassedDeadlineThrowsMaxTimeMSExpired) {
    ServiceContext sc;
    OperationContext opCtx(&sc, nullptr, 1);
    opCtx.setDeadlineAfterMillis(0);
    EXPECT_EQ(ErrorCodes::MaxTimeMSExpired, interruptCode(opCtx));
}

TEST(OperationContext, PlanSummaryIsEmptyUntilSet) {
    OperationContext opCtx(nullptr, nullptr, 1);
    EXPECT_EQ("", opCtx.planSummary());
    opCtx.setPlanSummary("IXSCAN { a: 1 }");
    EXPECT_EQ("IXSCAN { a: 1 }", opCtx.planSummary());
}

}  // namespace
}  // namespace mongo
