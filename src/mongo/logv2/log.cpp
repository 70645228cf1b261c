#include "mongo/logv2/log.h"

#include <cstdio>
#include <ctime>
#include <deque>
#include <mutex>

#include "mongo/bson/json.h"
#include "mongo/util/time_support.h"

namespace mongo::logv2 {

namespace {
struct LogState {
    std::mutex mutex;
    FILE* out = stdout;
    bool quiet = false;
    int verbosity = 0;
    bool startupComplete = false;
    std::deque<std::string> recent;
    std::vector<std::string> startupWarnings;
};
LogState& state() {
    static LogState* s = new LogState();  // never destroyed: logging works during exit
    return *s;
}
thread_local std::string tlThreadName = "main";

char severityChar(Severity s) {
    switch (s) {
        case Severity::kFatal:
            return 'F';
        case Severity::kError:
            return 'E';
        case Severity::kWarning:
            return 'W';
        case Severity::kInfo:
            return 'I';
        default:
            return 'D';
    }
}

std::string timestampNow() {
    std::string iso = Date_t::now().toString();  // ...Z
    if (!iso.empty() && iso.back() == 'Z') {
        iso.pop_back();
        iso += "+00:00";
    }
    return iso;
}
}  // namespace

StringData componentName(Component c) {
    switch (c) {
        case Component::kDefault:
            return "-";
        case Component::kAccessControl:
            return "ACCESS";
        case Component::kCommand:
            return "COMMAND";
        case Component::kControl:
            return "CONTROL";
        case Component::kExecutor:
            return "EXECUTOR";
        case Component::kIndex:
            return "INDEX";
        case Component::kNetwork:
            return "NETWORK";
        case Component::kQuery:
            return "QUERY";
        case Component::kReplication:
            return "REPL";
        case Component::kStorage:
            return "STORAGE";
        case Component::kTimeseries:
            return "TIMESERIES";
        case Component::kWrite:
            return "WRITE";
        case Component::kFTDC:
            return "FTDC";
    }
    return "-";
}

void log(Severity s, Component c, int id, StringData msg, const BSONObj& attr) {
    auto& st = state();
    if (st.quiet && s >= Severity::kInfo)
        return;
    std::string line = "{\"t\":{\"$date\":\"" + timestampNow() + "\"},\"s\":\"";
    line += severityChar(s);
    if (s > Severity::kInfo)
        line += std::to_string(static_cast<int>(s) - static_cast<int>(Severity::kInfo));
    line += "\",\"c\":";
    appendJsonString(line, componentName(c));
    line += ",\"id\":" + std::to_string(id) + ",\"ctx\":";
    appendJsonString(line, tlThreadName);
    line += ",\"msg\":";
    appendJsonString(line, msg);
    if (!attr.isEmpty()) {
        line += ",\"attr\":";
        line += tojsonCompact(attr);
    }
    line += "}";

    std::lock_guard<std::mutex> lk(st.mutex);
    std::fputs(line.c_str(), st.out);
    std::fputc('\n', st.out);
    std::fflush(st.out);
    st.recent.push_back(line);
    if (st.recent.size() > 1024)
        st.recent.pop_front();
    if (!st.startupComplete && s <= Severity::kWarning)
        st.startupWarnings.push_back(line);
}

Status setLogDestination(const std::string& path) {
    auto& st = state();
    std::lock_guard<std::mutex> lk(st.mutex);
    if (path.empty()) {
        st.out = stdout;
        return Status::OK();
    }
    FILE* f = std::fopen(path.c_str(), "a");
    if (!f)
        return Status(ErrorCodes::FileOpenFailed, "Failed to open log file " + path);
    if (st.out != stdout && st.out != stderr)
        std::fclose(st.out);
    st.out = f;
    return Status::OK();
}

void setQuiet(bool quiet) {
    state().quiet = quiet;
}

void setVerbosity(int level) {
    state().verbosity = level;
}

int verbosity() {
    return state().verbosity;
}

void setThreadName(StringData name) {
    tlThreadName.assign(name.data(), name.size());
}

const std::string& getThreadName() {
    return tlThreadName;
}

std::vector<std::string> recentLines() {
    auto& st = state();
    std::lock_guard<std::mutex> lk(st.mutex);
    return std::vector<std::string>(st.recent.begin(), st.recent.end());
}

std::vector<std::string> startupWarnings() {
    auto& st = state();
    std::lock_guard<std::mutex> lk(st.mutex);
    return st.startupWarnings;
}

void markStartupComplete() {
    auto& st = state();
    std::lock_guard<std::mutex> lk(st.mutex);
    st.startupComplete = true;
}

}  // namespace mongo::logv2
