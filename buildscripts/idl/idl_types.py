"""IDL type model: maps an IDL type name to C++ type, parse expression and serialiser.

Every type object offers:
  cpp            the C++ type of the member
  scalar         True when getters return it by value
  bson_types     BSONType enumerators it accepts (used by variants)
  parse(ctx, elem, in_array)   a C++ expression that parses `elem` (throws)
  serialize(b, name, value, uid)  C++ statements appending `value` as `name` to builder `b`
See README.md for the table of builtin types.
"""

NUMBERS = ['kNumberLong', 'kNumberInt', 'kNumberDecimal', 'kNumberDouble']

# name: (cpp type, scalar, accepted bson types, idl:: parse function, serialise kind)
BUILTINS = {
    'string': ('std::string', False, ['kString'], 'parseString', 'append'),
    'namespacestring': ('std::string', False, ['kString'], 'parseString', 'append'),
    'int': ('std::int32_t', True, ['kNumberInt'], 'parseInt', 'append'),
    'long': ('std::int64_t', True, ['kNumberLong', 'kNumberInt'], 'parseLong', 'append'),
    'safeInt': ('std::int32_t', True, NUMBERS, 'parseSafeInt', 'append'),
    'safeInt32': ('std::int32_t', True, NUMBERS, 'parseSafeInt', 'append'),
    'safeInt64': ('std::int64_t', True, NUMBERS, 'parseSafeInt64', 'append'),
    'double': ('double', True, ['kNumberDouble'], 'parseDouble', 'append'),
    'safeDouble': ('double', True, NUMBERS, 'parseSafeDouble', 'append'),
    'bool': ('bool', True, ['kBool'], 'parseBool', 'append'),
    'safeBool': ('bool', True, ['kBool'] + NUMBERS, 'parseSafeBool', 'append'),
    'optionalBool': ('bool', True, ['kBool'] + NUMBERS, 'parseSafeBool', 'append'),
    'date': ('Date_t', True, ['kDate'], 'parseDate', 'append'),
    'timestamp': ('Timestamp', True, ['kTimestamp'], 'parseTimestamp', 'append'),
    'objectid': ('OID', True, ['kOid'], 'parseObjectId', 'append'),
    'object': ('BSONObj', False, ['kObject'], 'parseObject', 'append'),
    'object_owned': ('BSONObj', False, ['kObject'], 'parseObjectOwned', 'append'),
    'safeNumeric': ('IDLAnyTypeOwned', False, NUMBERS, 'parseSafeNumeric', 'any'),
    'any': ('IDLAnyTypeOwned', False, None, 'parseAny', 'any'),
    'IDLAnyType': ('IDLAnyTypeOwned', False, None, 'parseAny', 'any'),
    'IDLAnyTypeOwned': ('IDLAnyTypeOwned', False, None, 'parseAny', 'any'),
}


class Builtin:
    def __init__(self, name):
        self.name = name
        self.cpp, self.scalar, self.bson_types, self.fn, self.kind = BUILTINS[name]

    def parse(self, ctx, elem, in_array=False):
        return 'idl::%s(%s, %s)' % (self.fn, ctx, elem)

    def serialize(self, b, name, value, uid):
        if self.kind == 'any':
            return ['%s.appendAs(%s, %s);' % (value, b, name)]
        return ['%s->append(%s, %s);' % (b, name, value)]


class EnumType:
    def __init__(self, name, values):
        self.name = name
        self.cpp = name
        self.scalar = True
        self.bson_types = ['kString']
        self.values = values  # {cpp enumerator: string}

    def parse(self, ctx, elem, in_array=False):
        return '%s_parse(IDLParserContext(%s.fieldNameStringData(), %s), idl::parseString(%s, %s))' % (
            self.name, elem, ctx, ctx, elem)

    def serialize(self, b, name, value, uid):
        return ['%s->append(%s, %s_serializer(%s));' % (b, name, self.name, value)]

    def default_literal(self, v):
        for k, s in self.values.items():
            if s == v or k == v:
                return '%s::%s' % (self.name, k)
        raise SystemExit('idlc: default %r is not a value of enum %s' % (v, self.name))


class StructType:
    def __init__(self, name, cpp):
        self.name = name
        self.cpp = cpp
        self.scalar = False
        self.bson_types = ['kObject']

    def parse(self, ctx, elem, in_array=False):
        sub = ctx if in_array else 'IDLParserContext(%s.fieldNameStringData(), %s)' % (elem, ctx)
        return '%s::parse(%s, idl::parseObject(%s, %s))' % (self.cpp, sub, ctx, elem)

    def serialize(self, b, name, value, uid):
        return ['{',
                '    BSONObjBuilder sub%d(%s->subobjStart(%s));' % (uid, b, name),
                '    %s.serialize(&sub%d);' % (value, uid),
                '}']


class ArrayType:
    def __init__(self, inner):
        self.inner = inner
        self.cpp = 'std::vector<%s>' % inner.cpp
        self.scalar = False
        self.bson_types = ['kArray']

    def parse(self, ctx, elem, in_array=False):
        return ('idl::parseArray<%s>(%s, %s, [&](const IDLParserContext& c, const BSONElement& e) '
                '{ return %s; })' % (self.inner.cpp, ctx, elem, self.inner.parse('c', 'e', True)))

    def serialize(self, b, name, value, uid):
        arr, idx, item, nm = 'arr%d' % uid, 'i%d' % uid, 'item%d' % uid, 'n%d' % uid
        lines = ['{',
                 '    BSONObjBuilder %s(%s->subarrayStart(%s));' % (arr, b, name),
                 '    std::size_t %s = 0;' % idx,
                 '    for (const auto& %s : %s) {' % (item, value),
                 '        const std::string %s = std::to_string(%s++);' % (nm, idx)]
        lines += ['        ' + x for x in self.inner.serialize('(&%s)' % arr, nm, item, uid + 1)]
        lines += ['    }', '}']
        return lines


class VariantType:
    def __init__(self, alts):
        self.alts = alts
        self.cpp = 'std::variant<%s>' % ', '.join(a.cpp for a in alts)
        self.scalar = False
        seen = []
        for a in alts:
            if a.bson_types is None:
                raise SystemExit('idlc: `any` cannot be a variant alternative')
            for t in a.bson_types:
                if t in seen:
                    raise SystemExit('idlc: variant alternatives overlap on %s' % t)
                seen.append(t)
        self.bson_types = seen

    def parse(self, ctx, elem, in_array=False):
        parts = ['[&]() -> %s { switch (%s.type()) {' % (self.cpp, elem)]
        for i, a in enumerate(self.alts):
            parts.append(' '.join('case BSONType::%s:' % t for t in a.bson_types))
            parts.append('return %s{std::in_place_index<%d>, %s};' % (
                self.cpp, i, a.parse(ctx, elem, in_array)))
        parts.append('default: %s.throwBadType(%s, {%s}); } }()' % (
            ctx, elem, ', '.join('BSONType::%s' % t for t in self.bson_types)))
        return ' '.join(parts)

    def serialize(self, b, name, value, uid):
        lines = ['switch (%s.index()) {' % value]
        for i, a in enumerate(self.alts):
            lines.append('    case %d: {' % i)
            lines += ['        ' + x for x in a.serialize(b, name, 'std::get<%d>(%s)' % (i, value),
                                                       uid + 1)]
            lines.append('        break;')
            lines.append('    }')
        lines.append('}')
        return lines


def resolve(spec, registry):
    """Resolves a field's `type` (string or {variant: [...]}) against builtins and `registry`
    (name -> EnumType/StructType)."""
    if isinstance(spec, dict):
        if 'variant' in spec:
            return VariantType([resolve(t, registry) for t in spec['variant']])
        raise SystemExit('idlc: unsupported type %r' % spec)
    spec = spec.strip()
    if spec.startswith('array<') and spec.endswith('>'):
        return ArrayType(resolve(spec[6:-1], registry))
    if spec in BUILTINS:
        return Builtin(spec)
    if spec in registry:
        return registry[spec]
    raise SystemExit('idlc: unknown type %r' % spec)
