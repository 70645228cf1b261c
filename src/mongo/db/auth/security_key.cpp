#include "mongo/db/auth/security_key.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace mongo::auth {

StatusWith<std::string> readSecurityKeyFile(const std::string& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0)
        return Status(ErrorCodes::InvalidPath,
                      "Error reading file " + path + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        return Status(ErrorCodes::InvalidPath, "Error reading file " + path + ": not a file");
    if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0)
        return Status(ErrorCodes::InvalidPath, "permissions on " + path + " are too open");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Status(ErrorCodes::InvalidPath,
                      "Error reading file " + path + ": " + std::strerror(errno));
    std::stringstream ss;
    ss << in.rdbuf();
    std::string key;
    for (char c : ss.str()) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')
            continue;
        if (!(isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/' || c == '='))
            return Status(ErrorCodes::BadValue,
                          "invalid char in key file " + path + ": " + std::string(1, c));
        key += c;
    }
    if (key.size() < 6 || key.size() > 1024)
        return Status(ErrorCodes::BadValue,
                      "security key in " + path + " has to be between 6 and 1024 characters");
    return key;
}

}  // namespace mongo::auth
