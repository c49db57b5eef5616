// Tests that record or replay exchanges get the cassettes with `import CourierTesting`: the
// cassettes are a module of their own because programs use them too (`courier replay`).
@_exported public import CourierCassettes
