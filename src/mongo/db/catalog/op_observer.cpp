#include "mongo/db/catalog/op_observer.h"

namespace mongo {

namespace {
std::unique_ptr<OpObserver>& observer() {
    static std::unique_ptr<OpObserver> o = std::make_unique<OpObserver>();
    return o;
}
}  // namespace

OpObserver* getOpObserver() {
    return observer().get();
}

void setOpObserver(std::unique_ptr<OpObserver> o) {
    observer() = std::move(o);
}

}  // namespace mongo
