// The collections a fresh mongod creates, as upstream does: local.startup_log
// (capped, one document per start) and admin.system.version (the
// featureCompatibilityVersion document).
#pragma once

#include "mongo/base/status.h"

namespace mongo {

class OperationContext;

Status createStartupCollections(OperationContext* opCtx);

}  // namespace mongo
