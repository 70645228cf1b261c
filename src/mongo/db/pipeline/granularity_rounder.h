// GranularityRounder: rounds non-negative numbers up or down to the next value of a
// preferred number series ($bucketAuto `granularity`): the Renard series R5..R80,
// the E series E6..E192 and 1-2-5 (each value scaled by any power of 10), or
// POWERSOF2. Rounding is strict: roundUp(x) > x and roundDown(x) < x, except that 0
// rounds to 0 both ways. Stateless and immutable after make().
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"

namespace mongo {

class GranularityRounder {
public:
    /** The rounder for `name` ("R5", "E24", "1-2-5", "POWERSOF2"...); 40257 if unknown. */
    static StatusWith<std::shared_ptr<const GranularityRounder>> make(StringData name);

    /** The smallest series value greater than `x` (x >= 0, not NaN). */
    double roundUp(double x) const;
    /** The largest series value less than `x` (x >= 0, not NaN). */
    double roundDown(double x) const;

    const std::string& name() const {
        return _name;
    }

private:
    GranularityRounder(std::string name, std::vector<double> series)
        : _name(std::move(name)), _series(std::move(series)) {}

    std::string _name;
    std::vector<double> _series;  // in [1, 10), ascending; empty for POWERSOF2
};

}  // namespace mongo
