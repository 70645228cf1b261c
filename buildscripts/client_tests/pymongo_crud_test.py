#!/usr/bin/python3
"""CRUD scenario with pymongo 3.11 (Debian python3-pymongo) against a running server.

Usage: /usr/bin/python3 buildscripts/client_tests/pymongo_crud_test.py --uri mongodb://127.0.0.1:PORT
Each step prints PASS/FAIL; the last line is "N passed, M failed".
"""

import argparse
import os
import sys
import time
import traceback

import pymongo
from pymongo.errors import BulkWriteError, DuplicateKeyError

RESULTS = []


def step(name):
    def wrap(fn):
        start = time.time()
        try:
            fn()
            RESULTS.append((name, True))
            print("[pymongo] PASS %s (%dms)" % (name, (time.time() - start) * 1000), flush=True)
        except Exception:  # noqa: BLE001 - report every failure and keep going
            RESULTS.append((name, False))
            print("[pymongo] FAIL %s:\n%s" % (name, traceback.format_exc()), flush=True)
        return fn
    return wrap


def expect_eq(expected, actual, what=""):
    if expected != actual:
        raise AssertionError("%s: expected %r, got %r" % (what or "value", expected, actual))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--uri", default=os.environ.get("MONGODB_URI", "mongodb://127.0.0.1:27017"))
    args = parser.parse_args()

    client = pymongo.MongoClient(args.uri, serverSelectionTimeoutMS=10000)
    db = client["pymongo_crud_test"]
    coll = db["people"]

    @step("connect and ping")
    def _():
        expect_eq(1.0, client.admin.command("ping")["ok"], "ping ok")

    if not RESULTS[-1][1]:
        client.close()
        print("0 passed, 1 failed")
        return 1

    @step("drop leftovers")
    def _():
        client.drop_database("pymongo_crud_test")

    @step("insert_one")
    def _():
        res = coll.insert_one({"_id": 1, "name": "ann", "age": 31, "city": "Oslo"})
        expect_eq(True, res.acknowledged)
        expect_eq(1, res.inserted_id)

    @step("insert_many")
    def _():
        res = coll.insert_many([
            {"_id": 2, "name": "bob", "age": 25, "city": "Rome"},
            {"_id": 3, "name": "cid", "age": 40, "city": "Oslo"},
            {"_id": 4, "name": "dan", "age": 19, "city": "Lima"},
            {"_id": 5, "name": "eve", "age": 35, "city": "Rome"},
        ])
        expect_eq([2, 3, 4, 5], res.inserted_ids)

    @step("find with filter")
    def _():
        names = [d["name"] for d in coll.find({"city": "Oslo"}).sort("_id", 1)]
        expect_eq(["ann", "cid"], names)

    @step("find with range filter, sort and limit")
    def _():
        ids = [d["_id"] for d in coll.find({"age": {"$gte": 25}}).sort("age", -1).limit(2)]
        expect_eq([3, 5], ids)

    @step("find with projection and skip")
    def _():
        docs = list(coll.find({}, {"_id": 0, "name": 1}).sort("_id", 1).skip(3))
        expect_eq([{"name": "dan"}, {"name": "eve"}], docs)

    @step("find_one")
    def _():
        expect_eq({"_id": 2, "name": "bob", "age": 25, "city": "Rome"}, coll.find_one({"name": "bob"}))
        expect_eq(None, coll.find_one({"name": "nobody"}))

    @step("update_one $set/$inc")
    def _():
        res = coll.update_one({"_id": 1}, {"$set": {"city": "Bergen"}, "$inc": {"age": 1}})
        expect_eq(1, res.matched_count, "matched")
        expect_eq(1, res.modified_count, "modified")
        expect_eq({"_id": 1, "name": "ann", "age": 32, "city": "Bergen"}, coll.find_one({"_id": 1}))

    @step("update_many")
    def _():
        res = coll.update_many({"city": "Rome"}, {"$inc": {"age": 10}, "$set": {"moved": False}})
        expect_eq(2, res.matched_count, "matched")
        expect_eq(2, res.modified_count, "modified")
        expect_eq([35, 45], [d["age"] for d in coll.find({"city": "Rome"}).sort("_id", 1)])

    @step("update_one upsert")
    def _():
        res = coll.update_one({"name": "fay"}, {"$set": {"age": 28, "city": "Kyiv"}}, upsert=True)
        expect_eq(0, res.matched_count, "matched")
        if res.upserted_id is None:
            raise AssertionError("no upserted_id")
        doc = coll.find_one({"name": "fay"})
        expect_eq(28, doc["age"])
        expect_eq(res.upserted_id, doc["_id"])

    @step("delete_one")
    def _():
        expect_eq(1, coll.delete_one({"name": "dan"}).deleted_count)
        expect_eq(None, coll.find_one({"name": "dan"}))

    @step("delete_many")
    def _():
        expect_eq(2, coll.delete_many({"city": "Rome"}).deleted_count)

    @step("count_documents")
    def _():
        expect_eq(3, coll.count_documents({}))
        expect_eq(1, coll.count_documents({"city": "Oslo"}))

    @step("create_index and list_indexes")
    def _():
        expect_eq("name_1", coll.create_index([("name", pymongo.ASCENDING)], unique=True))
        indexes = list(coll.list_indexes())
        expect_eq(["_id_", "name_1"], sorted(ix["name"] for ix in indexes))
        ix = [i for i in indexes if i["name"] == "name_1"][0]
        expect_eq({"name": 1}, dict(ix["key"]))
        expect_eq(True, ix.get("unique"))

    @step("duplicate key error code 11000")
    def _():
        try:
            coll.insert_one({"_id": 100, "name": "ann"})
        except DuplicateKeyError as exc:
            expect_eq(11000, exc.code)
        else:
            raise AssertionError("no DuplicateKeyError")
        try:
            coll.insert_one({"_id": 1, "name": "zed"})
        except DuplicateKeyError as exc:
            expect_eq(11000, exc.code)
        else:
            raise AssertionError("no DuplicateKeyError for _id")

    @step("insert_many ordered stops at duplicate")
    def _():
        try:
            coll.insert_many([{"_id": 200, "name": "g1"}, {"_id": 201, "name": "ann"},
                              {"_id": 202, "name": "g3"}])
        except BulkWriteError as exc:
            errors = exc.details["writeErrors"]
            expect_eq(1, len(errors))
            expect_eq(1, errors[0]["index"])
            expect_eq(11000, errors[0]["code"])
        else:
            raise AssertionError("no BulkWriteError")
        expect_eq(1, coll.count_documents({"_id": {"$in": [200, 201, 202]}}))

    @step("drop_index")
    def _():
        coll.drop_index("name_1")
        expect_eq(["_id_"], [ix["name"] for ix in coll.list_indexes()])

    @step("drop collection")
    def _():
        coll.drop()
        if "people" in db.list_collection_names():
            raise AssertionError("collection still listed")

    @step("close")
    def _():
        client.drop_database("pymongo_crud_test")
        client.close()

    passed = sum(1 for _, ok in RESULTS if ok)
    failed = len(RESULTS) - passed
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
