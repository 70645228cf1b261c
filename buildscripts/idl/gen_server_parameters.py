"""Generates the `server_parameters` section: one global per parameter plus its
registration in mongo::ServerParameterSet (src/mongo/idl/server_parameter.h).

Each parameter:
  name: {set_at: startup|runtime|[startup, runtime], cpp_vartype: int|long long|bool|double|
         std::string, cpp_varname: gName, default: <value>, validator: {gte|gt|lte|lt: v} or,
         for a string, {one_of: [allowed, values]}, description: ...}
"""
import os

VARTYPES = {'int': 'int', 'long long': 'long long', 'bool': 'bool', 'double': 'double',
            'std::string': 'std::string', 'int32_t': 'int', 'std::int32_t': 'int',
            'int64_t': 'long long', 'std::int64_t': 'long long', 'long': 'long long'}
VALIDATORS = [('gte', 'Gte'), ('gt', 'Gt'), ('lte', 'Lte'), ('lt', 'Lt')]


def _storage(t):
    return 'idl::SynchronizedString' if t == 'std::string' else 'std::atomic<%s>' % t


def _literal(t, v):
    if isinstance(v, dict) and 'expr' in v:
        return str(v['expr'])
    if t == 'bool':
        return 'true' if v else 'false'
    if t == 'std::string':
        return '"%s"' % str(v).replace('\\', '\\\\').replace('"', '\\"')
    return repr(v)


def _type_enum(set_at):
    if isinstance(set_at, str):
        set_at = [set_at]
    set_at = set(set_at)
    if set_at == {'startup'}:
        return 'ServerParameterType::kStartupOnly'
    if set_at == {'runtime'}:
        return 'ServerParameterType::kRuntimeOnly'
    if set_at == {'startup', 'runtime'}:
        return 'ServerParameterType::kStartupAndRuntime'
    raise SystemExit('idlc: bad set_at %r' % set_at)


def generate(doc, out, input_path):
    ns = (doc.get('global') or {}).get('cpp_namespace', 'mongo')
    stem = os.path.splitext(os.path.basename(input_path))[0]
    fn = 'registerServerParameters_%s' % stem
    h, c = out.h, out.cpp
    h.append('#include <atomic>')
    h.append('#include <string>\n')
    h.append('#include "mongo/idl/server_parameter.h"\n')
    h.append('namespace %s {\n' % ns)
    c.append('namespace %s {\n' % ns)
    regs = []
    for name, p in doc['server_parameters'].items():
        t = VARTYPES.get(p['cpp_vartype'])
        if t is None:
            raise SystemExit('idlc: %s: unsupported cpp_vartype %r' % (name, p['cpp_vartype']))
        var = p['cpp_varname']
        if p.get('description'):
            h.append('/** %s: %s */' % (name, ' '.join(str(p['description']).split())))
        h.append('extern %s %s;' % (_storage(t), var))
        init = _literal(t, p['default']) if 'default' in p else ''
        c.append('%s %s{%s};' % (_storage(t), var, init))
        vals = []
        for key, vfn in VALIDATORS:
            if key in (p.get('validator') or {}):
                vals.append('[](const %s& v) { return idl::validateParam%s<%s>("%s", v, %s); }'
                            % (t, vfn, t, name, _literal(t, p['validator'][key])))
        if 'one_of' in (p.get('validator') or {}):
            if t != 'std::string':
                raise SystemExit('idlc: %s: one_of needs cpp_vartype std::string' % name)
            allowed = ', '.join(_literal(t, a) for a in p['validator']['one_of'])
            vals.append('[](const std::string& v) { return idl::validateParamOneOf("%s", v, {%s}); }'
                        % (name, allowed))
        regs.append('    set->add(new idl::IDLServerParameterWithStorage<%s>(\n'
                    '        "%s", %s, &%s, {%s}));' % (t, name, _type_enum(p['set_at']), var,
                                                       ', '.join(vals)))
    h.append('\n/** Registers this file\'s parameters (idempotent; also done at static init). */')
    h.append('void %s();\n' % fn)
    h.append('}  // namespace %s' % ns)
    c.append('\nvoid %s() {' % fn)
    c.append('    static const bool done = [] {')
    c.append('        ServerParameterSet* set = ServerParameterSet::get();')
    c += ['    ' + r.replace('\n', '\n    ') for r in regs]
    c.append('        return true;')
    c.append('    }();')
    c.append('    (void)done;')
    c.append('}\n')
    c.append('namespace {')
    c.append('[[maybe_unused]] const bool kRegistered = (%s(), true);' % fn)
    c.append('}  // namespace\n')
    c.append('}  // namespace %s' % ns)
