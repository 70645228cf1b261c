// ts_load: loads the shared tsbs cpu dataset (../shared/bench/tsbs_cpu_gen.py, csv format)
// into one collection with libmongoc, the way ts_bench.py's Python loader does (insertMany
// batches of 1,000, unordered, several connections), but with the documents encoded before
// the clock starts, so the figure measures the server rather than the client.
//
//   ts_load --uri mongodb://127.0.0.1:27017 --db bench --coll ts_int --data DIR --prec int
//           [--threads 4] [--batch 1000] [--shift-seconds S]
//
// --shift-seconds adds S seconds to every row's time (the 30-day extension of
// rollups_bench.py loads the one-day dataset once per day, shifted).
//
// Prints one JSON line: {"docs": N, "seconds": S, "per_s": R}.
#include <bson/bson.h>
#include <mongoc/mongoc.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

const char* const kTagKeys[] = {"hostname", "region", "datacenter", "rack", "os", "arch",
                                "team", "service", "service_version", "service_environment"};
const char* const kFields[] = {"usage_user", "usage_system", "usage_idle", "usage_nice",
                               "usage_iowait", "usage_irq", "usage_softirq", "usage_steal",
                               "usage_guest", "usage_guest_nice"};

std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ','))
        out.push_back(cell);
    return out;
}

// "YYYY-MM-DD HH:MM:SS" (UTC) to milliseconds since the epoch.
int64_t parseTime(const std::string& s) {
    struct tm tm {};
    if (sscanf(s.c_str(), "%d-%d-%d %d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
               &tm.tm_min, &tm.tm_sec) != 6) {
        fprintf(stderr, "bad time: %s\n", s.c_str());
        exit(2);
    }
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return static_cast<int64_t>(timegm(&tm)) * 1000;
}

std::string arg(int argc, char** argv, const char* name, const char* dflt) {
    for (int i = 1; i + 1 < argc; ++i)
        if (strcmp(argv[i], name) == 0)
            return argv[i + 1];
    if (!dflt) {
        fprintf(stderr, "missing %s\n", name);
        exit(2);
    }
    return dflt;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string uri = arg(argc, argv, "--uri", "mongodb://127.0.0.1:27017");
    const std::string dbName = arg(argc, argv, "--db", "bench");
    const std::string collName = arg(argc, argv, "--coll", nullptr);
    const std::string dir = arg(argc, argv, "--data", nullptr);
    const std::string prec = arg(argc, argv, "--prec", "int");
    const int threads = std::atoi(arg(argc, argv, "--threads", "4").c_str());
    const size_t batch = std::strtoul(arg(argc, argv, "--batch", "1000").c_str(), nullptr, 10);
    const int64_t shiftMillis =
        std::strtoll(arg(argc, argv, "--shift-seconds", "0").c_str(), nullptr, 10) * 1000;

    std::map<std::string, std::vector<std::string>> tags;
    {
        std::ifstream f(dir + "/tags.csv");
        std::string line;
        while (std::getline(f, line)) {
            auto cells = splitCsv(line);
            if (cells.size() == 11)
                tags[cells[0]] = std::vector<std::string>(cells.begin() + 1, cells.end());
        }
    }
    // bson_t carries an alignment attribute that std::vector's template argument would drop.
    struct Doc {
        bson_t* b;
    };
    std::vector<Doc> docs;
    {
        std::ifstream f(dir + "/" + prec + "/cpu.csv");
        if (!f) {
            fprintf(stderr, "cannot open %s/%s/cpu.csv\n", dir.c_str(), prec.c_str());
            return 2;
        }
        std::string line;
        while (std::getline(f, line)) {
            auto cells = splitCsv(line);
            if (cells.size() != 12)
                continue;
            auto it = tags.find(cells[1]);
            if (it == tags.end())
                continue;
            bson_t* d = bson_new();
            BSON_APPEND_DATE_TIME(d, "time", parseTime(cells[0]) + shiftMillis);
            bson_t t;
            BSON_APPEND_DOCUMENT_BEGIN(d, "tags", &t);
            for (int i = 0; i < 10; ++i)
                BSON_APPEND_UTF8(&t, kTagKeys[i], it->second[i].c_str());
            bson_append_document_end(d, &t);
            for (int i = 0; i < 10; ++i)
                BSON_APPEND_DOUBLE(d, kFields[i], std::strtod(cells[2 + i].c_str(), nullptr));
            docs.push_back({d});
        }
    }

    auto** all = new const bson_t*[docs.size()];
    for (size_t i = 0; i < docs.size(); ++i)
        all[i] = docs[i].b;

    mongoc_init();
    bson_error_t err;
    mongoc_uri_t* u = mongoc_uri_new_with_error(uri.c_str(), &err);
    if (!u) {
        fprintf(stderr, "bad uri: %s\n", err.message);
        return 2;
    }
    mongoc_client_pool_t* pool = mongoc_client_pool_new(u);
    std::atomic<size_t> nextBatch{0};
    std::atomic<bool> failed{false};
    const size_t nBatches = (docs.size() + batch - 1) / batch;

    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (int w = 0; w < threads; ++w) {
        workers.emplace_back([&] {
            mongoc_client_t* client = mongoc_client_pool_pop(pool);
            mongoc_collection_t* coll =
                mongoc_client_get_collection(client, dbName.c_str(), collName.c_str());
            bson_t opts = BSON_INITIALIZER;
            BSON_APPEND_BOOL(&opts, "ordered", false);
            // The documents were built here: skip the driver's per-key checks so the client
            // spends its CPU sending, not re-validating (the server validates anyway).
            BSON_APPEND_BOOL(&opts, "validate", false);
            for (size_t b; (b = nextBatch.fetch_add(1)) < nBatches;) {
                size_t from = b * batch, n = std::min(batch, docs.size() - from);
                bson_error_t e;
                if (!mongoc_collection_insert_many(coll, &all[from],
                                                   n, &opts, nullptr, &e)) {
                    fprintf(stderr, "insert failed: %s\n", e.message);
                    failed = true;
                    break;
                }
            }
            bson_destroy(&opts);
            mongoc_collection_destroy(coll);
            mongoc_client_pool_push(pool, client);
        });
    }
    for (auto& t : workers)
        t.join();
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    printf("{\"docs\": %zu, \"seconds\": %.3f, \"per_s\": %.0f}\n", docs.size(), secs,
           docs.size() / secs);
    for (auto& d : docs)
        bson_destroy(d.b);
    delete[] all;
    mongoc_client_pool_destroy(pool);
    mongoc_uri_destroy(u);
    mongoc_cleanup();
    return failed ? 1 : 0;
}
