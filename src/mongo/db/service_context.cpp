#include "mongo/db/service_context.h"

namespace mongo {

namespace {
ServiceContext* gServiceContext = nullptr;
}

ServiceContext* ServiceContext::get() {
    return gServiceContext;
}

void ServiceContext::set(ServiceContext* sc) {
    gServiceContext = sc;
}

}  // namespace mongo
