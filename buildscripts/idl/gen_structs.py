"""Generates C++ for the `enums`, `structs` and `commands` sections of an IDL file.

The generated API is documented in README.md; runtime helpers are in
src/mongo/idl/idl_parser.h.
"""
import os

import yaml

import idl_types

GENERIC_ARGS_FILE = 'generic_argument.idl'
GENERIC_ARGS_STRUCT = 'GenericArguments'
VALIDATORS = [('gte', 'Gte'), ('gt', 'Gt'), ('lte', 'Lte'), ('lt', 'Lt')]
NAMESPACES = ('concatenate_with_db', 'concatenate_with_db_or_uuid', 'ignored', 'type')


def _cap(s):
    return s[0].upper() + s[1:]


def _cpp_str(s):
    return '"%s"' % s.replace('\\', '\\\\').replace('"', '\\"')


class Field:
    def __init__(self, name, spec, registry):
        if not isinstance(spec, dict):
            spec = {'type': spec}
        self.name = name
        self.cpp_name = spec.get('cpp_name', name.lstrip('$'))
        self.member = '_' + self.cpp_name
        self.const = 'k%sFieldName' % _cap(self.cpp_name)
        self.type = idl_types.resolve(spec['type'], registry)
        self.optional = bool(spec.get('optional', False))
        self.has_default = 'default' in spec
        self.default = spec.get('default')
        self.validator = spec.get('validator') or {}
        # stability: unstable - outside API Version 1: refused under apiStrict (by the caller,
        # which knows the operation's API parameters, through unstableFieldNames()).
        self.stability = spec.get('stability', 'stable')
        if self.stability not in ('stable', 'unstable'):
            raise SystemExit('idlc: field %s: stability must be stable or unstable' % name)
        self.required = not self.optional and not self.has_default
        if self.optional and self.has_default:
            raise SystemExit('idlc: field %s is both optional and has a default' % name)

    @property
    def member_type(self):
        return 'std::optional<%s>' % self.type.cpp if self.optional else self.type.cpp

    def default_literal(self):
        v = self.default
        t = self.type
        if isinstance(t, idl_types.EnumType):
            return t.default_literal(v)
        if isinstance(v, bool):
            return 'true' if v else 'false'
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            if t.cpp == 'std::string':
                return _cpp_str(v)
            return v  # a C++ expression
        if v == {} and t.cpp == 'BSONObj':
            return 'BSONObj()'
        if v == [] and t.cpp.startswith('std::vector'):
            return '%s{}' % t.cpp
        raise SystemExit('idlc: unsupported default %r for %s' % (v, self.name))


class Struct:
    def __init__(self, name, spec, registry, command=False):
        spec = spec or {}
        self.name = name
        self.command = command
        self.cpp = spec.get('cpp_name', name)
        self.strict = bool(spec.get('strict', True))
        self.description = spec.get('description', '')
        self.fields = [Field(n, s, registry) for n, s in (spec.get('fields') or {}).items()]
        if command:
            self.command_name = spec.get('command_name', name)
            self.namespace = spec.get('namespace', 'ignored')
            if self.namespace not in NAMESPACES:
                raise SystemExit('idlc: %s: unsupported namespace %s' % (name, self.namespace))
            self.param_type = (idl_types.resolve(spec['type'], registry)
                               if self.namespace == 'type' else None)


def _load_imports(doc, input_path, registry, includes):
    base = os.path.dirname(os.path.abspath(input_path))
    for imp in doc.get('imports') or []:
        path = os.path.join(base, os.path.basename(imp))
        with open(path) as f:
            idoc = yaml.safe_load(f) or {}
        _register(idoc, registry)
        includes.append('mongo/idl/%s_gen.h' % os.path.splitext(os.path.basename(imp))[0])


def _register(doc, registry):
    for name, spec in (doc.get('enums') or {}).items():
        values = {}
        for k, v in spec['values'].items():
            values[k] = v['value'] if isinstance(v, dict) else v
        registry[name] = idl_types.EnumType(name, values)
    for name, spec in (doc.get('structs') or {}).items():
        registry[name] = idl_types.StructType(name, (spec or {}).get('cpp_name', name))


def _generic_fields(input_path):
    """The GenericArguments fields (name -> cpp_name), read from generic_argument.idl."""
    path = os.path.join(os.path.dirname(os.path.abspath(input_path)), GENERIC_ARGS_FILE)
    with open(path) as f:
        gdoc = yaml.safe_load(f)
    out = {}
    for n, s in gdoc['structs'][GENERIC_ARGS_STRUCT]['fields'].items():
        out[n] = s.get('cpp_name', n.lstrip('$')) if isinstance(s, dict) else n.lstrip('$')
    return out


def generate(doc, out, input_path):
    ns = (doc.get('global') or {}).get('cpp_namespace', 'mongo')
    registry, includes = {}, []
    _load_imports(doc, input_path, registry, includes)
    _register(doc, registry)
    structs = [Struct(n, s, registry) for n, s in (doc.get('structs') or {}).items()]
    commands = [Struct(n, s, registry, command=True)
                for n, s in (doc.get('commands') or {}).items()]
    generic = _generic_fields(input_path) if commands else {}
    if commands and GENERIC_ARGS_FILE not in [os.path.basename(i) for i in
                                              doc.get('imports') or []]:
        includes.append('mongo/idl/generic_argument_gen.h')

    h = out.h
    for inc in ['<cstdint>', '<optional>', '<string>', '<variant>', '<vector>']:
        h.append('#include %s' % inc)
    for inc in ['mongo/base/status.h', 'mongo/base/string_data.h', 'mongo/bson/bsonobj.h',
                'mongo/bson/bsonobjbuilder.h', 'mongo/idl/idl_parser.h'] + includes:
        h.append('#include "%s"' % inc)
    h.append('\nnamespace %s {\n' % ns)
    out.cpp.append('namespace %s {\n' % ns)

    for name, spec in (doc.get('enums') or {}).items():
        _gen_enum(registry[name], spec, out)
    for s in structs + commands:
        _gen_struct(s, out, generic)
    h.append('}  // namespace %s' % ns)
    out.cpp.append('}  // namespace %s' % ns)


def _gen_enum(e, spec, out):
    h, c = out.h, out.cpp
    if spec.get('description'):
        h.append('/** %s */' % spec['description'])
    h.append('enum class %s : std::int32_t {' % e.name)
    for k in e.values:
        h.append('    %s,' % k)
    h.append('};\n')
    h.append('/** Parses `value`; throws BadValue naming `ctx` when it is not a valid value. */')
    h.append('%s %s_parse(const IDLParserContext& ctx, StringData value);' % (e.name, e.name))
    h.append('StringData %s_serializer(%s value);\n' % (e.name, e.name))
    c.append('%s %s_parse(const IDLParserContext& ctx, StringData value) {' % (e.name, e.name))
    for k, v in e.values.items():
        c.append('    if (value == %s)' % _cpp_str(v))
        c.append('        return %s::%s;' % (e.name, k))
    c.append('    ctx.throwBadEnumValue(value);')
    c.append('}\n')
    c.append('StringData %s_serializer(%s value) {' % (e.name, e.name))
    c.append('    switch (value) {')
    for k, v in e.values.items():
        c.append('        case %s::%s:' % (e.name, k))
        c.append('            return %s;' % _cpp_str(v))
    c.append('    }')
    c.append('    MONGO_UNREACHABLE;')
    c.append('}\n')


def _getter_type(f):
    if f.type.scalar:
        return f.member_type
    return 'const %s&' % f.member_type


def _gen_struct(s, out, generic):
    h = out.h
    cls = s.cpp
    ctx_default = 'kCommandName' if s.command else _cpp_str(s.cpp)
    if s.description:
        h.append('/** %s */' % s.description)
    h.append('class %s {' % cls)
    h.append('public:')
    if s.command:
        h.append('    static constexpr StringData kCommandName = %s;' % _cpp_str(s.command_name))
        h.append('    static constexpr StringData kDbNameFieldName = "$db";')
    for f in s.fields:
        h.append('    static constexpr StringData %s = %s;' % (f.const, _cpp_str(f.name)))
    h.append('')
    h.append('    %s() = default;\n' % cls)
    h.append('    /** Parses `obj`; throws DBException (IDL codes, TypeMismatch, BadValue). */')
    h.append('    static %s parse(const BSONObj& obj, StringData ctxName = %s);' % (cls, ctx_default))
    h.append('    static %s parse(const IDLParserContext& ctx, const BSONObj& obj);' % cls)
    h.append('    /** Like parse() but returns the error as a Status. */')
    h.append('    static StatusWith<%s> parseNoThrow(const BSONObj& obj, StringData ctxName = %s);'
             % (cls, ctx_default))
    h.append('    /** True when `name` is one of this struct\'s declared fields. */')
    h.append('    static bool isKnownField(StringData name);')
    h.append('    /** The fields marked `stability: unstable` (not in API Version 1). */')
    h.append('    static const std::vector<StringData>& unstableFieldNames();\n')
    h.append('    /** Appends the fields to `builder`. */')
    h.append('    void serialize(BSONObjBuilder* builder) const;')
    h.append('    /** An owned document with the fields. */')
    h.append('    BSONObj toBSON() const;\n')
    if s.command:
        h.append('    const std::string& getDbName() const {')
        h.append('        return _dbName;')
        h.append('    }')
        h.append('    void setDbName(std::string value) {')
        h.append('        _dbName = std::move(value);')
        h.append('    }')
        if s.namespace.startswith('concatenate'):
            h.append('    const std::string& getCollectionName() const {')
            h.append('        return _collectionName;')
            h.append('    }')
            h.append('    void setCollectionName(std::string value) {')
            h.append('        _collectionName = std::move(value);')
            h.append('    }')
            h.append('    /** "<db>.<collection>". */')
            h.append('    std::string getNamespace() const {')
            h.append('        return _dbName + "." + _collectionName;')
            h.append('    }')
        elif s.namespace == 'type':
            rt = s.param_type.cpp if s.param_type.scalar else 'const %s&' % s.param_type.cpp
            h.append('    %s getCommandParameter() const {' % rt)
            h.append('        return _commandParameter;')
            h.append('    }')
            h.append('    void setCommandParameter(%s value) {' % s.param_type.cpp)
            h.append('        _commandParameter = std::move(value);')
            h.append('    }')
        h.append('    const GenericArguments& getGenericArguments() const {')
        h.append('        return _genericArguments;')
        h.append('    }')
        h.append('    GenericArguments& getGenericArguments() {')
        h.append('        return _genericArguments;')
        h.append('    }')
        own = {f.name for f in s.fields}
        own_cpp = {f.cpp_name for f in s.fields}
        for gname, gcpp in generic.items():
            if gname in own or gcpp in own_cpp or gname == '$db':
                continue
            h.append('    decltype(auto) get%s() const {' % _cap(gcpp))
            h.append('        return _genericArguments.get%s();' % _cap(gcpp))
            h.append('    }')
    for f in s.fields:
        h.append('    %s get%s() const {' % (_getter_type(f), _cap(f.cpp_name)))
        h.append('        return %s;' % f.member)
        h.append('    }')
        h.append('    void set%s(%s value) {' % (_cap(f.cpp_name), f.member_type))
        h.append('        %s = std::move(value);' % f.member)
        h.append('    }')
    h.append('\nprivate:')
    h.append('    void parseProtected(const IDLParserContext& ctx, const BSONObj& obj);\n')
    if s.command:
        h.append('    std::string _dbName;')
        if s.namespace.startswith('concatenate'):
            h.append('    std::string _collectionName;')
        elif s.namespace == 'type':
            h.append('    %s _commandParameter{};' % s.param_type.cpp)
        h.append('    GenericArguments _genericArguments;')
    for f in s.fields:
        init = f.default_literal() if f.has_default else ''
        h.append('    %s %s{%s};' % (f.member_type, f.member, init))
    h.append('};\n')
    _gen_struct_cpp(s, out)


def _gen_struct_cpp(s, out):
    c = out.cpp
    cls = s.cpp
    c.append('%s %s::parse(const BSONObj& obj, StringData ctxName) {' % (cls, cls))
    c.append('    return parse(IDLParserContext(ctxName), obj);')
    c.append('}\n')
    c.append('%s %s::parse(const IDLParserContext& ctx, const BSONObj& obj) {' % (cls, cls))
    c.append('    %s result;' % cls)
    c.append('    result.parseProtected(obj.isOwned() ? ctx.withBuffer(obj) : ctx, obj);')
    c.append('    return result;')
    c.append('}\n')
    c.append('StatusWith<%s> %s::parseNoThrow(const BSONObj& obj, StringData ctxName) {'
             % (cls, cls))
    c.append('    try {')
    c.append('        return parse(obj, ctxName);')
    c.append('    } catch (const DBException& ex) {')
    c.append('        return ex.toStatus();')
    c.append('    }')
    c.append('}\n')
    c.append('bool %s::isKnownField(StringData name) {' % cls)
    for f in s.fields:
        c.append('    if (name == %s)' % f.const)
        c.append('        return true;')
    c.append('    return false;')
    c.append('}\n')
    c.append('const std::vector<StringData>& %s::unstableFieldNames() {' % cls)
    names = ', '.join(f.const for f in s.fields if f.stability == 'unstable')
    c.append('    static const std::vector<StringData> kNames{%s};' % names)
    c.append('    return kNames;')
    c.append('}\n')
    _gen_parse(s, c)
    _gen_serialize(s, c)


def _null_means_absent(f):
    """True for a field that is not required and whose type is checked against fixed BSON
    types (not `any`, not a variant, whose parse switches on the type itself)."""
    if f.required:
        return False
    t = f.type
    if isinstance(t, idl_types.VariantType) or t.bson_types is None:
        return False
    return 'kNull' not in t.bson_types and 'kUndefined' not in t.bson_types


def _gen_parse(s, c):
    n = len(s.fields)
    c.append('void %s::parseProtected(const IDLParserContext& ctx, const BSONObj& obj) {' % s.cpp)
    c.append('    bool seen[%d] = {};' % max(n, 1))
    c.append('    (void)seen;')
    if s.command:
        c.append('    bool first = true;')
        c.append('    bool seenDb = false;')
        c.append('    BSONObjBuilder genericBuilder;')
    c.append('    for (const BSONElement& elem : obj) {')
    c.append('        const StringData name = elem.fieldNameStringData();')
    c.append('        (void)name;')
    if s.command:
        c.append('        if (first) {')
        c.append('            first = false;')
        if s.namespace.startswith('concatenate'):
            c.append('            uassert(ErrorCodes::InvalidNamespace,')
            c.append('                    "collection name has invalid type " +')
            c.append('                        std::string(typeName(elem.type())),')
            c.append('                    elem.type() == BSONType::kString);')
            c.append('            _collectionName = elem.str();')
        elif s.namespace == 'type':
            c.append('            _commandParameter = %s;' % s.param_type.parse('ctx', 'elem'))
        c.append('            continue;')
        c.append('        }')
    kw = 'if'
    for i, f in enumerate(s.fields):
        c.append('        %s (name == %s) {' % (kw, f.const))
        c.append('            if (seen[%d])' % i)
        c.append('                ctx.throwDuplicateField(name);')
        c.append('            seen[%d] = true;' % i)
        if _null_means_absent(f):
            # Upstream's parsers skip a null or undefined value of a typed field, so an
            # optional field given as null is "not present" (its default, if any, stays).
            c.append('            if (elem.type() == BSONType::kNull || '
                     'elem.type() == BSONType::kUndefined)')
            c.append('                continue;')
        c.append('            auto value = %s;' % f.type.parse('ctx', 'elem'))
        for key, fn in VALIDATORS:
            if key in f.validator:
                c.append('            idl::validate%s(ctx, name, value, %r);' % (fn, f.validator[key]))
        c.append('            %s = std::move(value);' % f.member)
        kw = '} else if'
    if s.command:
        c.append('        %s (name == kDbNameFieldName) {' % kw)
        c.append('            if (seenDb)')
        c.append('                ctx.throwDuplicateField(name);')
        c.append('            seenDb = true;')
        c.append('            _dbName = idl::parseString(ctx, elem);')
        c.append('        } else if (GenericArguments::isKnownField(name)) {')
        c.append('            genericBuilder.append(elem);')
        kw = '} else if'
    if s.strict:
        if kw == 'if':
            c.append('        ctx.throwUnknownField(name);')
        else:
            c.append('        } else {')
            c.append('            ctx.throwUnknownField(name);')
            c.append('        }')
    elif kw != 'if':
        c.append('        }')
    c.append('    }')
    for i, f in enumerate(s.fields):
        if f.required:
            c.append('    if (!seen[%d])' % i)
            c.append('        ctx.throwMissingField(%s);' % f.const)
    if s.command:
        c.append('    if (!seenDb)')
        c.append('        ctx.throwMissingField(kDbNameFieldName);')
        if s.namespace.startswith('concatenate'):
            c.append('    uassert(ErrorCodes::InvalidNamespace,')
            c.append('            "Invalid namespace specified \'" + _dbName + ".\'",')
            c.append('            !_collectionName.empty());')
        c.append('    const BSONObj genericObj = genericBuilder.obj();')
        c.append('    _genericArguments = GenericArguments::parse(ctx.withBuffer(genericObj), '
                 'genericObj);')
    c.append('}\n')


def _gen_serialize(s, c):
    c.append('void %s::serialize(BSONObjBuilder* builder) const {' % s.cpp)
    uid = 0
    if s.command:
        if s.namespace.startswith('concatenate'):
            c.append('    builder->append(kCommandName, _collectionName);')
        elif s.namespace == 'type':
            c += ['    ' + x for x in s.param_type.serialize('builder', 'kCommandName',
                                                            '_commandParameter', uid)]
        else:
            c.append('    builder->append(kCommandName, 1);')
    for f in s.fields:
        uid += 10
        if f.optional:
            c.append('    if (%s) {' % f.member)
            c += ['        ' + x for x in f.type.serialize('builder', f.const, '(*%s)' % f.member, uid)]
            c.append('    }')
        else:
            c += ['    ' + x for x in f.type.serialize('builder', f.const, f.member, uid)]
    if s.command:
        c.append('    _genericArguments.serialize(builder);')
        c.append('    builder->append(kDbNameFieldName, _dbName);')
    c.append('}\n')
    c.append('BSONObj %s::toBSON() const {' % s.cpp)
    c.append('    BSONObjBuilder builder;')
    c.append('    serialize(&builder);')
    c.append('    return builder.obj();')
    c.append('}\n')
