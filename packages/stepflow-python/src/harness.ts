/**
 * The Python side of the UDF component, run once in the interpreter. `prepare` turns a UDF's source
 * into a callable (or a located error); `run` calls it with the input and a context, and answers
 * with one JSON text, `{"result": …}` or `{"error": "<Type>: <message> (line N)"}`, so values cross
 * into JavaScript as JSON only. Line numbers are those of the UDF's own code: blocks are wrapped in
 * a function through the syntax tree, not by editing the text.
 */
export const HARNESS = String.raw`
import ast
import inspect
import json
import math
import re
import traceback

FILENAME = "<udf>"


class UdfInput(dict):
    """A UDF's input: a dict whose keys also read as attributes; nested mappings read the same way."""

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)
        return UdfInput(value) if type(value) is dict else value

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"input has no key {key!r}") from None


class Context:
    """The context a UDF gets: the runtime's blob store, through JavaScript (values cross as JSON text)."""

    def __init__(self, bridge):
        self._bridge = bridge

    async def get_blob(self, blob_id):
        return json.loads(await self._bridge.get_blob(str(blob_id)))

    async def put_blob(self, data):
        return await self._bridge.put_blob(json.dumps(data, allow_nan=False))


def describe(error):
    """'<Type>: <message> (line N)', N being the last line of the UDF's code the error passed through."""
    line = None
    if isinstance(error, SyntaxError) and error.filename == FILENAME:
        message, line = error.msg, error.lineno
    else:
        message = str(error)
        for frame in traceback.extract_tb(error.__traceback__):
            if frame.filename == FILENAME:
                line = frame.lineno
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return f"{text} (line {line})" if line else text


def scope():
    return {"__name__": "udf", "json": json, "math": math, "re": re}


def parameters(*names):
    return ast.arguments(posonlyargs=[], args=[ast.arg(arg=name) for name in names], kwonlyargs=[], kw_defaults=[], defaults=[])


def awaits(nodes):
    """Whether statements await, outside any function or class they define."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Await, ast.AsyncFor, ast.AsyncWith)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def expression_or_block(code):
    """An expression becomes 'lambda input: <expression>'; anything else the body of 'def udf(input, context)'."""
    try:
        tree = ast.Expression(ast.Lambda(args=parameters("input"), body=ast.parse(code, FILENAME, mode="eval").body))
        function = eval(compile(ast.fix_missing_locations(tree), FILENAME, "eval"), scope())
        return lambda input, context: function(UdfInput(input))
    except SyntaxError:
        pass
    body = ast.parse(code, FILENAME, mode="exec").body or [ast.Pass()]
    kind = ast.AsyncFunctionDef if awaits(body) else ast.FunctionDef
    tree = ast.Module(body=[kind(name="udf", args=parameters("input", "context"), body=body, decorator_list=[])], type_ignores=[])
    names = scope()
    exec(compile(ast.fix_missing_locations(tree), FILENAME, "exec"), names)
    function = names["udf"]
    return lambda input, context: function(UdfInput(input), context)


def named(code, function_name):
    """The function the code defines: it gets the input (wrapped unless annotated otherwise) and, when its second parameter is 'context', the context."""
    names = scope()
    exec(compile(code, FILENAME, "exec"), names)
    if function_name not in names:
        raise NameError(f"the code defines no function {function_name!r}")
    function = names[function_name]
    if not callable(function):
        raise TypeError(f"{function_name!r} is not a function")
    params = list(inspect.signature(function).parameters.values())
    if not params:
        raise TypeError(f"function {function_name!r} takes no parameter: it must take the input")
    wrap = params[0].annotation in (inspect.Parameter.empty, dict)
    with_context = len(params) == 2 and params[1].name == "context"

    def call(input, context):
        value = UdfInput(input) if wrap else input
        return function(value, context) if with_context else function(value)

    return call


def prepare(code, function_name):
    """A callable (input, context), or the error message (a str) when the code does not compile or define it."""
    try:
        return named(code, function_name) if function_name is not None else expression_or_block(code)
    except BaseException as error:
        return describe(error)


async def run(call, input_json, bridge):
    try:
        result = call(json.loads(input_json), Context(bridge))
        if inspect.isawaitable(result):
            result = await result
    except BaseException as error:
        return json.dumps({"error": describe(error)})
    try:
        return json.dumps({"result": result}, allow_nan=False)
    except (TypeError, ValueError) as error:
        return json.dumps({"error": f"the result is not JSON: {error}"})
`;
