// The names every command accepts besides its own: `$db` and the generic arguments of
// idl/generic_argument.idl (struct GenericArguments). Code that walks a command body by hand
// asks here instead of keeping its own list.
#pragma once

#include "mongo/base/string_data.h"
#include "mongo/idl/generic_argument_gen.h"

namespace mongo {

/** True for `$db` and for every field of GenericArguments. */
inline bool isGenericArgument(StringData name) {
    return name == "$db" || GenericArguments::isKnownField(name);
}

}  // namespace mongo
