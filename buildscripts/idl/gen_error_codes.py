"""Generates class mongo::ErrorCodes from the `error_codes` section of an IDL file."""


def check(doc):
    """Exits on a name (or alias) or number given twice, or an undeclared category."""
    seen_names, seen_codes = set(), set()
    cats = set(doc.get('error_categories', []))
    for e in doc['error_codes']:
        names = [e['name']] + e.get('aliases', [])
        if any(n in seen_names for n in names) or e['code'] in seen_codes:
            raise SystemExit('idlc: duplicate error code %r' % e)
        seen_names.update(names)
        seen_codes.add(e['code'])
        for c in e.get('categories', []):
            if c not in cats:
                raise SystemExit('idlc: unknown category %s on %s' % (c, e['name']))


def generate(doc, out):
    check(doc)
    codes = doc['error_codes']
    cats = doc.get('error_categories', [])
    h = out.h
    h.append('#include <cstdint>')
    h.append('#include <string>')
    h.append('#include <string_view>\n')
    h.append('namespace mongo {\n')
    h.append('/** Server error codes; numbers and names equal upstream MongoDB\'s. */')
    h.append('class ErrorCodes {')
    h.append('public:')
    h.append('    enum Error : std::int32_t {')
    for e in codes:
        h.append('        %s = %d,' % (e['name'], e['code']))
    h.append('    };\n')
    h.append('    /** The code\'s name, or "Location<n>" for a code not in the table. */')
    h.append('    static std::string errorString(Error code);')
    h.append('    /** The code named `name` (or one of its aliases), or UnknownError. */')
    h.append('    static Error fromString(std::string_view name);')
    h.append('    /** True when `code` is listed in the table. */')
    h.append('    static bool isKnown(int code);')
    for c in cats:
        h.append('    static bool is%s(Error code);' % c)
    h.append('};\n')
    h.append('}  // namespace mongo')

    c = out.cpp
    c.append('namespace mongo {\n')
    c.append('std::string ErrorCodes::errorString(Error code) {')
    c.append('    switch (code) {')
    for e in codes:
        c.append('        case %s:' % e['name'])
        c.append('            return "%s";' % e['name'])
    c.append('    }')
    c.append('    return "Location" + std::to_string(static_cast<int>(code));')
    c.append('}\n')
    c.append('ErrorCodes::Error ErrorCodes::fromString(std::string_view name) {')
    for e in codes:
        for n in [e['name']] + e.get('aliases', []):
            c.append('    if (name == "%s")' % n)
            c.append('        return %s;' % e['name'])
    c.append('    return UnknownError;')
    c.append('}\n')
    c.append('bool ErrorCodes::isKnown(int code) {')
    c.append('    switch (code) {')
    for e in codes:
        c.append('        case %d:' % e['code'])
    c.append('            return true;')
    c.append('    }')
    c.append('    return false;')
    c.append('}\n')
    for cat in cats:
        members = [e['name'] for e in codes if cat in e.get('categories', [])]
        c.append('bool ErrorCodes::is%s(Error code) {' % cat)
        c.append('    switch (code) {')
        for m in members:
            c.append('        case %s:' % m)
        if members:
            c.append('            return true;')
        c.append('        default:')
        c.append('            return false;')
        c.append('    }')
        c.append('}\n')
    c.append('}  // namespace mongo')
