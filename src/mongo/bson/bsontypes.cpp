#include "mongo/bson/bsontypes.h"

namespace mongo {

StringData typeName(BSONType t) {
    switch (t) {
        case BSONType::kMinKey:
            return "minKey";
        case BSONType::kEOO:
            return "missing";
        case BSONType::kNumberDouble:
            return "double";
        case BSONType::kString:
            return "string";
        case BSONType::kObject:
            return "object";
        case BSONType::kArray:
            return "array";
        case BSONType::kBinData:
            return "binData";
        case BSONType::kUndefined:
            return "undefined";
        case BSONType::kOid:
            return "objectId";
        case BSONType::kBool:
            return "bool";
        case BSONType::kDate:
            return "date";
        case BSONType::kNull:
            return "null";
        case BSONType::kRegEx:
            return "regex";
        case BSONType::kDBRef:
            return "dbPointer";
        case BSONType::kCode:
            return "javascript";
        case BSONType::kSymbol:
            return "symbol";
        case BSONType::kCodeWScope:
            return "javascriptWithScope";
        case BSONType::kNumberInt:
            return "int";
        case BSONType::kTimestamp:
            return "timestamp";
        case BSONType::kNumberLong:
            return "long";
        case BSONType::kNumberDecimal:
            return "decimal";
        case BSONType::kMaxKey:
            return "maxKey";
    }
    return "unknown";
}

bool isValidBSONType(int t) {
    return (t >= 1 && t <= 19) || t == -1 || t == 127 || t == 255;
}

int canonicalizeBSONType(BSONType t) {
    switch (t) {
        case BSONType::kMinKey:
            return -1;
        case BSONType::kEOO:
        case BSONType::kUndefined:
            return 0;
        case BSONType::kNull:
            return 5;
        case BSONType::kNumberDecimal:
        case BSONType::kNumberDouble:
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
            return 10;
        case BSONType::kString:
        case BSONType::kSymbol:
            return 15;
        case BSONType::kObject:
            return 20;
        case BSONType::kArray:
            return 25;
        case BSONType::kBinData:
            return 30;
        case BSONType::kOid:
            return 35;
        case BSONType::kBool:
            return 40;
        case BSONType::kDate:
            return 45;
        case BSONType::kTimestamp:
            return 47;
        case BSONType::kRegEx:
            return 50;
        case BSONType::kDBRef:
            return 55;
        case BSONType::kCode:
            return 60;
        case BSONType::kCodeWScope:
            return 65;
        case BSONType::kMaxKey:
            return 127;
    }
    return 0;
}

}  // namespace mongo
