"""Build logic for SConstruct: options, environment, libraries, programs.

Libraries are listed in LIBRARIES in layer order (a library may only depend on
earlier ones). Each library takes the non-test .cpp files of its folders
(non-recursive). Tests for a library live in unittests/<same folder>/*_test.cpp and
are linked into `unittests` (all of them) and into `unittests_<lib>` (that library's
only), so one layer can be tested while another is being edited.
"""
import os
import shutil
import subprocess

from SCons.Script import Builder, Action

# (name, folders under src/, idl files whose generated code belongs to the library,
#  libraries it depends on directly).
LIBRARIES = [
    ('base', ['mongo/base', 'mongo/util'], ['error_codes'], []),
    ('bson', ['mongo/bson'], [], ['base']),
    ('bson_column', ['mongo/bson/column'], [], ['bson']),
    # JSON structured logging (attributes are BSON).
    ('logv2', ['mongo/logv2'], [], ['bson']),
    ('idl', ['mongo/idl'], 'rest', ['bson']),  # every other idl/*.idl
    ('transport', ['mongo/transport', 'mongo/rpc'], [], ['bson', 'logv2']),
    ('storage', ['mongo/db/storage', 'mongo/db/storage/wiredtiger'], [], ['bson', 'logv2']),
    # Operation/service state, namespaces, the cursor registry and write errors (db/ops), used
    # by every layer above storage.
    ('db_base', ['mongo/db/namespace_string.cpp', 'mongo/db/operation_context.cpp',
                 'mongo/db/api_parameters.cpp',
                 'mongo/db/service_context.cpp', 'mongo/db/cursor_manager.cpp', 'mongo/db/stats',
                 'mongo/db/ops'],
     [], ['storage', 'bson']),
    # Geometry parsing and predicates over Google S2 (libs2).
    ('geo', ['mongo/db/geo'], [], ['bson']),
    # Full-text search: text index specs, tokenising, stemming (libstemmer), scoring, $search.
    ('fts', ['mongo/db/fts'], [], ['bson']),
    ('query', ['mongo/db/matcher', 'mongo/db/query', 'mongo/db/query/collation',
               'mongo/db/update'], [],
     ['bson', 'bson_column', 'geo', 'fts']),
    ('catalog', ['mongo/db/catalog'], [], ['db_base', 'storage', 'query', 'idl', 'fts']),
    ('repl', ['mongo/db/repl'], [], ['catalog', 'query', 'db_base']),
    # The time-series core (layer 12): the bucket schema's names, options, BucketSpec, meta
    # normalisation, index schema conversion and the bucket-level geo predicate; what both
    # the pipeline and the write path need. Single files of mongo/db/timeseries (headers
    # without a .cpp are listed too: the layer check places them).
    ('timeseries_core', ['mongo/db/timeseries/timeseries_constants.h',
                         'mongo/db/timeseries/bucket_spec.h',
                         'mongo/db/timeseries/timeseries_options.cpp',
                         'mongo/db/timeseries/metadata.cpp',
                         'mongo/db/timeseries/timeseries_index_schema_conversion_functions.cpp',
                         'mongo/db/timeseries/bucket_geo_within_match_expression.cpp'], [],
     ['catalog', 'query', 'idl', 'bson_column']),
    ('exec', ['mongo/db/exec'], [], ['catalog', 'query', 'timeseries_core']),
    ('pipeline', ['mongo/db/pipeline'], [], ['exec', 'query', 'catalog', 'timeseries_core']),
    # The time-series write path (layer 15): bucket catalog, compression, writes on buckets.
    ('timeseries', ['mongo/db/timeseries', 'mongo/db/timeseries/bucket_catalog',
                    'mongo/db/timeseries/rollups'], [],
     ['timeseries_core', 'catalog', 'pipeline', 'bson_column', 'repl']),
    # Users, roles, privileges, SCRAM (layer 16); OpenSSL and ICU's SASLprep.
    ('auth', ['mongo/db/auth'], [], ['catalog', 'db_base', 'transport', 'idl']),
    # The TTL monitor (layer 17, below the commands, which report its metrics).
    ('ttl', ['mongo/db/ttl'], [],
     ['catalog', 'exec', 'repl', 'timeseries', 'storage', 'query', 'db_base', 'idl', 'logv2']),
    ('db', ['mongo/db', 'mongo/db/commands'], [],
     ['catalog', 'exec', 'pipeline', 'repl', 'timeseries', 'transport', 'storage', 'query',
      'idl', 'auth', 'ttl']),
]

# Test-only libraries, in the same shape: linked into the unit tests only, never into mongod.
# `unittest.idl` declares the types and server parameters the IDL compiler's own tests use.
TEST_LIBRARIES = [
    ('idl_test', [], ['unittest'], ['idl']),
]


def _closure(name, table):
    deps = {n: d for (n, _, _, d) in table}
    seen, stack = set(), [name]
    while stack:
        n = stack.pop()
        if n in seen or n not in deps:
            continue
        seen.add(n)
        stack.extend(deps[n])
    return seen


PKG_MODULES = ['wiredtiger', 'libbson-1.0', 'absl_flat_hash_map', 'absl_synchronization',
               'absl_strings', 'absl_str_format', 'absl_time', 'absl_hash', 'libpcre2-8',
               'yaml-cpp', 'snappy', 'libzstd', 'zlib', 'icu-i18n', 'icu-uc', 'libssl', 'libcrypto']


def _add_options(AddOption):
    AddOption('--opt', dest='opt', default='on', choices=['on', 'off'])
    AddOption('--dbg', dest='dbg', default='off', choices=['on', 'off'])
    AddOption('--sanitize', dest='sanitize', default='')
    AddOption('--build-dir', dest='build_dir', default='')
    AddOption('--cxx', dest='cxx', default='')


def _variant_name(GetOption):
    name = 'dbg' if GetOption('dbg') == 'on' else 'opt'
    san = GetOption('sanitize')
    if san:
        name += '-' + san.replace(',', '-')
    return name


def configure_and_build(DefaultEnvironment, Environment, GetOption, AddOption, Dir, File, Glob,
                        Alias, Default, SConsignFile, Exit, Help):
    _add_options(AddOption)
    top = Dir('#').abspath
    build_dir = GetOption('build_dir') or os.path.join('build', _variant_name(GetOption))
    build_abs = os.path.join(top, build_dir)
    os.makedirs(build_abs, exist_ok=True)
    SConsignFile(os.path.join(build_abs, '.sconsign'))

    sanitize = [s for s in GetOption('sanitize').split(',') if s]
    cxx = GetOption('cxx') or ('clang++' if 'fuzzer' in sanitize else 'g++')
    cc = 'clang' if cxx.startswith('clang') else 'gcc'
    env = Environment(ENV={'PATH': os.environ.get('PATH', '/usr/bin:/bin'),
                           'HOME': os.environ.get('HOME', '/root'),
                           'CCACHE_DIR': os.environ.get('CCACHE_DIR',
                                                        os.path.expanduser('~/.ccache')),
                           # Relative paths in the cache key: clones elsewhere hit the cache.
                           'CCACHE_BASEDIR': top,
                           'CCACHE_NOHASHDIR': '1'},
                      CXX=cxx, CC=cc)
    if shutil.which('ccache') and not os.environ.get('NO_CCACHE'):
        env['CXX'] = 'ccache ' + cxx
        env['CC'] = 'ccache ' + cc

    if not os.environ.get('VERBOSE'):
        env['CXXCOMSTR'] = 'Compiling $SOURCE'
        env['LINKCOMSTR'] = 'Linking $TARGET'
        env['ARCOMSTR'] = 'Archiving $TARGET'
        env['RANLIBCOMSTR'] = ''
    gen_dir = os.path.join(build_abs, 'gen')
    env.Append(CXXFLAGS=['-std=c++20', '-include', 'utility'],
               CCFLAGS=['-Wall', '-Wextra', '-Wno-unused-parameter', '-pthread',
                        '-fno-omit-frame-pointer'],
               # WiredTiger finds the zstd extension entry in the program itself (dlsym).
               LINKFLAGS=['-pthread', '-Wl,--export-dynamic-symbol=mongo_wt_zstd_extension_init'],
               CPPPATH=['#src', gen_dir])
    if GetOption('dbg') == 'on':
        env.Append(CCFLAGS=['-O0', '-g'])
    else:
        env.Append(CCFLAGS=['-O2', '-g1'])
    if sanitize:
        flag = '-fsanitize=' + ','.join(s if s != 'fuzzer' else 'fuzzer-no-link' for s in sanitize)
        env.Append(CCFLAGS=[flag, '-fno-sanitize-recover=undefined'],
                   LINKFLAGS=['-fsanitize=' + ','.join(s for s in sanitize if s != 'fuzzer')]
                   if [s for s in sanitize if s != 'fuzzer'] else [])

    env.ParseConfig('pkg-config --cflags --libs ' + ' '.join(PKG_MODULES))
    env.Append(LIBS=['s2', 'stemmer', 'boost_program_options', 'bidgcc000', 'dl', 'pthread'])

    idl_files = sorted(os.path.splitext(os.path.basename(p))[0]
                       for p in os.listdir(os.path.join(top, 'idl')) if p.endswith('.idl'))
    claimed = {s for (_, _, idls, _) in LIBRARIES + TEST_LIBRARIES if idls != 'rest'
               for s in idls}

    idl_builder = Builder(action=Action(
        '/usr/bin/python3 ${SOURCES[1]} ${SOURCES[0]} --header ${TARGETS[0]} '
        '--source ${TARGETS[1]}', 'IDL ${SOURCES[0]}'))
    env.Append(BUILDERS={'IDL': idl_builder})
    idlc_deps = Glob('#buildscripts/idl/*.py')

    gen_headers = []

    def gen_idl(stem):
        h = os.path.join(gen_dir, 'mongo', 'idl', stem + '_gen.h')
        c = os.path.join(gen_dir, 'mongo', 'idl', stem + '_gen.cpp')
        t = env.IDL([h, c], ['#idl/%s.idl' % stem, '#buildscripts/idl/idlc.py'])
        env.Depends(t, idlc_deps)
        gen_headers.append(t[0])
        return t[1]

    # The jstests' ErrorCodes table, from the same IDL as the server's (git-ignored; the shell
    # loads it from jstests/libs/, so it is written there rather than into the build dir).
    error_codes_js = env.Command(
        '#jstests/libs/error_codes.js',
        ['#idl/error_codes.idl', '#buildscripts/idl/gen_error_codes_js.py'],
        Action('/usr/bin/python3 ${SOURCES[1]} ${SOURCES[0]} --out $TARGET', 'GEN $TARGET'))
    env.Depends(error_codes_js, idlc_deps)

    obj_root = os.path.join(build_abs, 'obj')

    def objects(e, sources):
        objs = []
        for s in sources:
            if isinstance(s, str) and s.startswith('#'):
                s = os.path.join(top, s[1:])
            path = s if isinstance(s, str) else s.srcnode().abspath
            if path.startswith(build_abs + os.sep):
                rel = os.path.relpath(path, build_abs)
            else:
                rel = os.path.relpath(path, top)
            target = os.path.join(obj_root, os.path.splitext(rel)[0] + '.o')
            objs.append(e.Object(target, s))
        return objs

    # Single files named in the table belong to that library, not to their folder's.
    claimed_files = {f for (_, folders, _, _) in LIBRARIES for f in folders if f.endswith('.cpp')}

    def folder_sources(folder, kinds=('',)):
        if folder.endswith('.cpp'):
            return [File('#src/' + folder)]
        if folder.endswith('.h'):
            return []  # a header the table places (no source of its own)
        result = []
        for f in sorted(Glob('#src/%s/*.cpp' % folder, strings=False)):
            if os.path.relpath(f.srcnode().abspath, os.path.join(top, 'src')) in claimed_files:
                continue
            name = os.path.basename(f.abspath)
            if name.endswith(('_test.cpp', '_bm.cpp', '_fuzzer.cpp', '_tool.cpp')):
                continue
            if folder == 'mongo/db' and name == 'mongod_main.cpp':
                continue
            result.append(f)
        return result

    libs = []  # in layer order
    lib_by_name = {}
    for name, folders, idls, _ in LIBRARIES:
        srcs = []
        stems = [s for s in idl_files if s not in claimed] if idls == 'rest' else idls
        for stem in stems:
            srcs.append(gen_idl(stem))
        for folder in folders:
            srcs += folder_sources(folder)
        if not srcs:
            continue
        lib = env.StaticLibrary(os.path.join(build_abs, 'lib', 'mongo_' + name),
                                objects(env, srcs))
        libs.append((name, lib))
        lib_by_name[name] = lib

    test_libs = {}  # test-only library name -> (library, the production libraries it needs)
    for name, folders, idls, deps in TEST_LIBRARIES:
        srcs = [gen_idl(stem) for stem in idls]
        for folder in folders:
            srcs += folder_sources(folder)
        lib = env.StaticLibrary(os.path.join(build_abs, 'lib', 'mongo_' + name),
                                objects(env, srcs))
        test_libs[name] = (lib, deps)

    def lib_nodes(names):
        """Our static libraries for `names` (and their dependencies), in layer order."""
        wanted = set()
        for n in names:
            wanted |= _closure(n, LIBRARIES)
        return [lib[0] for (n, lib) in libs if n in wanted]

    def test_lib_nodes(names):
        """The test-only libraries that build on any of the libraries `names`."""
        return [lib[0] for (lib, deps) in test_libs.values() if set(deps) & set(names)]

    # Our libraries are linked whole-archive (commands and parameters register
    # themselves from static initialisers) and as a group (layers call each other).
    prog_env = env.Clone()
    prog_env['LINKCOM'] = ('$LINK -o $TARGET $LINKFLAGS $__RPATH $SOURCES '
                           '-Wl,--whole-archive -Wl,--start-group $MONGO_LIBS -Wl,--end-group '
                           '-Wl,--no-whole-archive $_LIBDIRFLAGS $_LIBFLAGS')

    # Sanitized programs read their suppressions from etc/sanitizers/ (the runtimes' default
    # options name the files, so a run needs no ASAN_OPTIONS/LSAN_OPTIONS/UBSAN_OPTIONS).
    san_objs = []
    if [s for s in sanitize if s != 'fuzzer']:
        supp = os.path.join(top, 'etc', 'sanitizers')
        hooks = {'asan': 'address', 'lsan': 'address', 'ubsan': 'undefined'}
        lines = ['// Generated by site_scons/mongo_build.py for --sanitize builds.\n']
        for rt, needs in sorted(hooks.items()):
            if needs in sanitize:
                opts = 'suppressions=%s' % os.path.join(supp, rt + '.supp')
                if rt == 'ubsan':
                    opts += ':print_stacktrace=1'
                lines.append('extern "C" const char* __%s_default_options() { return "%s"; }\n'
                             % (rt, opts))
        text = ''.join(lines)
        path = os.path.join(gen_dir, 'sanitizer_options.cpp')
        os.makedirs(gen_dir, exist_ok=True)
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, 'w') as f:
                f.write(text)
        san_objs = objects(env, [path])

    def program(e, target, sources, lib_names, extra_libs=()):
        mlibs = list(extra_libs) + lib_nodes(lib_names)
        prog = e.Program(target, list(sources) + san_objs, MONGO_LIBS=mlibs)
        e.Depends(prog, mlibs)
        return prog

    all_lib_names = [n for (n, _) in libs]

    def owning_lib(src_path):
        folder = os.path.relpath(os.path.dirname(src_path), os.path.join(top, 'src'))
        for n, folders, _, _ in LIBRARIES:
            if folder in folders:
                return [n]
        return all_lib_names

    targets = {}
    main_srcs = [f for f in ['#src/mongo/mongod_main.cpp'] if os.path.exists(
        os.path.join(top, 'src/mongo/mongod_main.cpp'))]
    if main_srcs:
        # mongod allocates through tcmalloc, as upstream's does (not under sanitizers,
        # which bring their own allocator).
        mongod_env = prog_env.Clone()
        if not sanitize and os.system('pkg-config --exists libtcmalloc_minimal') == 0:
            mongod_env.ParseConfig('pkg-config --libs libtcmalloc_minimal')
        mongod = program(mongod_env, os.path.join(build_abs, 'mongod'),
                         objects(mongod_env, main_srcs), all_lib_names)
        targets['mongod'] = mongod
        targets['error_codes_js'] = error_codes_js
        Alias('mongod', [mongod, error_codes_js])

    # Unit tests.
    test_env = prog_env.Clone()
    test_env.ParseConfig('pkg-config --cflags --libs gtest gmock')
    all_tests = []
    for name, folders, _, _ in LIBRARIES:
        tsrcs = []
        for folder in folders:
            if not folder.endswith('.cpp'):
                tsrcs += sorted(Glob('#unittests/%s/*_test.cpp' % folder))
        if not tsrcs:
            continue
        tobjs = objects(test_env, tsrcs)
        all_tests += tobjs
        prog = program(test_env, os.path.join(build_abs, 'unittests_' + name),
                       tobjs + objects(test_env, ['#unittests/unittest_main.cpp']), [name],
                       test_lib_nodes([name]))
        Alias('unittests_' + name, prog)
    if all_tests:
        prog = program(test_env, os.path.join(build_abs, 'unittests'),
                       all_tests + objects(test_env, ['#unittests/unittest_main.cpp']),
                       all_lib_names, test_lib_nodes(all_lib_names))
        Alias('unittests', prog)

    # Benchmarks (Google Benchmark): every src/**/*_bm.cpp is one program.
    bm_env = prog_env.Clone()
    bm_env.Append(LIBS=['benchmark', 'pthread'])
    bms = []
    for root, _, files in os.walk(os.path.join(top, 'src')):
        for f in files:
            if f.endswith('_bm.cpp'):
                src = '#' + os.path.relpath(os.path.join(root, f), top)
                bms.append(program(bm_env, os.path.join(build_abs, 'benchmarks', f[:-4]),
                                   objects(bm_env, [src]), owning_lib(os.path.join(root, f))))
    Alias('benchmarks', bms)

    # Small programs over our libraries used by the test tooling: every src/**/*_tool.cpp
    # is one program in tools/ (e.g. the legacy shell's decompressBSONColumn).
    tool_progs = []
    for root, _, files in os.walk(os.path.join(top, 'src')):
        for f in sorted(files):
            if f.endswith('_tool.cpp'):
                src = '#' + os.path.relpath(os.path.join(root, f), top)
                tool_progs.append(program(prog_env, os.path.join(build_abs, 'tools', f[:-9]),
                                          objects(prog_env, [src]),
                                          owning_lib(os.path.join(root, f))))
    Alias('tools', tool_progs)

    # Client-side benchmark tools (buildscripts/bench/*.cpp), built against libmongoc.
    if os.system('pkg-config --exists libmongoc-1.0') == 0:
        tool_env = env.Clone()
        tool_env.ParseConfig('pkg-config --cflags --libs libmongoc-1.0')
        tool_env.Append(LIBS=['pthread'])
        tools = []
        for f in sorted(os.listdir(os.path.join(top, 'buildscripts', 'bench'))):
            if f.endswith('.cpp'):
                tools.append(tool_env.Program(os.path.join(build_abs, 'bench', f[:-4]),
                                              objects(tool_env, ['#buildscripts/bench/' + f])))
        Alias('bench_tools', tools)

    # Fuzzers (libFuzzer): only with --sanitize=...,fuzzer and clang.
    if 'fuzzer' in sanitize:
        fz_env = prog_env.Clone()
        fz_env.Append(LINKFLAGS=['-fsanitize=fuzzer'])
        fzs = []
        for root, _, files in os.walk(os.path.join(top, 'src')):
            for f in files:
                if f.endswith('_fuzzer.cpp'):
                    src = '#' + os.path.relpath(os.path.join(root, f), top)
                    fzs.append(program(fz_env, os.path.join(build_abs, 'fuzzers', f[:-4]),
                                       objects(fz_env, [src]), owning_lib(os.path.join(root, f))))
        Alias('fuzzers', fzs)

    Default(list(targets.values()))
