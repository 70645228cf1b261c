// Helpers for storage tests: a temporary dbpath and engine open/close.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "mongo/db/storage/wiredtiger/wiredtiger_kv_engine.h"

namespace mongo {

class TempDir {
public:
    TempDir() {
        auto base = std::filesystem::temp_directory_path();
        std::random_device rd;
        _path = (base / ("storage_test_" + std::to_string(rd()) + std::to_string(rd()))).string();
        std::filesystem::create_directories(_path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(_path, ec);
    }
    const std::string& path() const {
        return _path;
    }

private:
    std::string _path;
};

inline StorageEngineOptions testOptions(const std::string& dbpath) {
    StorageEngineOptions o;
    o.dbpath = dbpath;
    o.cacheSizeGB = 0.0625;  // 64 MB
    o.journalFileMaxMB = 1;
    return o;
}

inline std::unique_ptr<WiredTigerKVEngine> openEngine(const StorageEngineOptions& o) {
    auto sw = WiredTigerKVEngine::open(o);
    EXPECT_TRUE(sw.isOK()) << sw.getStatus();
    return sw.isOK() ? std::move(sw.getValue()) : nullptr;
}

}  // namespace mongo
