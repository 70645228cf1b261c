#include "mongo/db/auth/sasl_prep.h"

#include <memory>
#include <vector>

#include <unicode/usprep.h>
#include <unicode/ustring.h>

namespace mongo::auth {
namespace {

bool isPrintableAscii(StringData s) {
    for (char c : s) {
        if (c < 0x20 || c > 0x7e)
            return false;
    }
    return true;
}

struct ProfileCloser {
    void operator()(UStringPrepProfile* p) const {
        usprep_close(p);
    }
};

Status badValue(StringData what) {
    return Status(ErrorCodes::BadValue, "Error during SASLprep: " + std::string(what));
}

}  // namespace

StatusWith<std::string> saslPrep(StringData input) {
    if (isPrintableAscii(input))
        return std::string(input);

    UErrorCode err = U_ZERO_ERROR;
    std::unique_ptr<UStringPrepProfile, ProfileCloser> profile(
        usprep_openByType(USPREP_RFC4013_SASLPREP, &err));
    if (U_FAILURE(err))
        return badValue(u_errorName(err));

    int32_t len16 = 0;
    err = U_ZERO_ERROR;
    u_strFromUTF8(nullptr, 0, &len16, input.data(), static_cast<int32_t>(input.size()), &err);
    if (err != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(err))
        return badValue("invalid UTF-8");
    std::vector<UChar> in(len16 + 1);
    err = U_ZERO_ERROR;
    u_strFromUTF8(in.data(), len16 + 1, nullptr, input.data(), static_cast<int32_t>(input.size()),
                  &err);
    if (U_FAILURE(err))
        return badValue("invalid UTF-8");

    std::vector<UChar> out(len16 * 4 + 16);
    UParseError parseErr;
    err = U_ZERO_ERROR;
    int32_t outLen =
        usprep_prepare(profile.get(), in.data(), len16, out.data(),
                       static_cast<int32_t>(out.size()), USPREP_DEFAULT, &parseErr, &err);
    if (err == U_BUFFER_OVERFLOW_ERROR) {
        out.resize(outLen + 1);
        err = U_ZERO_ERROR;
        outLen = usprep_prepare(profile.get(), in.data(), len16, out.data(),
                                static_cast<int32_t>(out.size()), USPREP_DEFAULT, &parseErr, &err);
    }
    if (U_FAILURE(err))
        return badValue(u_errorName(err));

    int32_t len8 = 0;
    err = U_ZERO_ERROR;
    u_strToUTF8(nullptr, 0, &len8, out.data(), outLen, &err);
    std::string result(len8, '\0');
    err = U_ZERO_ERROR;
    u_strToUTF8(result.data(), len8, nullptr, out.data(), outLen, &err);
    if (U_FAILURE(err) && err != U_STRING_NOT_TERMINATED_WARNING)
        return badValue(u_errorName(err));
    return result;
}

}  // namespace mongo::auth
