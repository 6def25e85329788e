"""A failed Spark job's one line on Spark Connect (:mod:`kafka_offsets_cli.spark.failure`).

The exceptions are pyspark's own, made the way its Connect client makes them from a server's
error (``convert_exception`` of a ``google.rpc.ErrorInfo`` whose metadata is what a Spark 4
server sends); the messages are copied from a real server's answers (tests/test_spark_connect.py
provokes the same failures through the CLI). The classic (Py4J) path: tests/unit/spark/test_spark_deploy.py.
"""

from __future__ import annotations

import json
from typing import Any

from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from pyspark.errors.exceptions.connect import SparkConnectGrpcException, convert_exception

from kafka_offsets_cli.spark.failure import SparkJobFailed, connect_detail, is_connect, job_failure

WORKER = "/opt/spark/python/lib/pyspark.zip/pyspark/worker.py"
PYTHON_MESSAGE = (
    "[PYTHON_EXCEPTION] An exception was thrown from the Python worker: Traceback (most recent call last):\n"
    f'  File "{WORKER}", line 4207, in invoke_udf\n'
    "    func, profiler, deserializer, serializer = read_udfs(\n"
    "                                               ^^^^^^^^^^\n"
    f'  File "{WORKER}", line 1920, in read_udfs\n'
    "    import pyarrow as pa\n"
    "ModuleNotFoundError: No module named 'pyarrow'\n"
    " SQLSTATE: 38000"
)
PYTHON_CLASSES = [
    "org.apache.spark.api.python.PythonException",
    "java.lang.RuntimeException",
    "java.lang.Exception",
    "java.lang.Throwable",
    "java.lang.Object",
]
DIV0_MESSAGE = (
    "[DIVIDE_BY_ZERO] Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL "
    'instead. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error. SQLSTATE: 22012\n'
    "== SQL (line 1, position 1) ==\n1 div (id - 1) as x\n^^^^^^^^^^^^^^\n"
)
DIV0_STACK = (
    "org.apache.spark.SparkArithmeticException\n"
    "\tat org.apache.spark.sql.errors.QueryExecutionErrors.divideByZeroError(QueryExecutionErrors.scala:-1)\n"
    "\tat org.apache.spark.scheduler.ResultTask.runTask(ResultTask.scala:93)"
)


def server_error(message: str, classes: list[str], *, display: bool = False, **metadata: str) -> Any:
    """The exception pyspark's Connect client raises for a server error with this ErrorInfo."""
    info = error_details_pb2.ErrorInfo(
        reason=classes[0], domain="org.apache.spark", metadata={"classes": json.dumps(classes), **metadata}
    )
    return convert_exception(info, message, None, display)


def test_a_tasks_python_error_is_the_exception_line_of_the_workers_traceback() -> None:
    e = server_error(PYTHON_MESSAGE, PYTHON_CLASSES, errorClass="PYTHON_EXCEPTION", sqlState="38000")
    assert type(e).__name__ == "PythonException" and is_connect(e)
    failed = job_failure(e)
    assert isinstance(failed, SparkJobFailed)
    assert failed.message == (
        "the Spark job failed: ModuleNotFoundError: No module named 'pyarrow' "
        "(in a Python worker of the Spark Connect server)"
    )
    assert failed.hint is not None and "--debug" in failed.hint and "Spark Connect server" in failed.hint


def test_any_python_exception_name_and_the_last_of_a_chain() -> None:
    chained = (
        "[PYTHON_EXCEPTION] An exception was thrown from the Python worker: "
        "Traceback (most recent call last):\n"
        '  File "/app/task.py", line 3, in task\n    connect()\n'
        "ConnectionRefusedError: [Errno 111] refused\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n"
        '  File "/app/task.py", line 5, in task\n    raise Boom("no broker")\n'
        "task.Boom: no broker\nsecond line of the message\n"
        " SQLSTATE: 38000"
    )
    e = server_error(chained, PYTHON_CLASSES, errorClass="PYTHON_EXCEPTION")
    assert job_failure(e).message == (
        "the Spark job failed: task.Boom: no broker (in a Python worker of the Spark Connect server)"
    )


def test_a_java_side_error_names_the_servers_exception_class() -> None:
    classes = ["org.apache.spark.SparkArithmeticException", "java.lang.ArithmeticException"]
    e = server_error(
        DIV0_MESSAGE,
        classes,
        display=True,
        errorClass="DIVIDE_BY_ZERO",
        sqlState="22012",
        stackTrace=DIV0_STACK,
    )
    assert "JVM stacktrace:" in str(e)  # pyspark appends the server's stack trace to the message
    assert job_failure(e).message == (
        "the Spark job failed: org.apache.spark.SparkArithmeticException: " + DIV0_MESSAGE.splitlines()[0]
    )
    note = connect_detail(e)
    assert note is not None
    assert "condition: DIVIDE_BY_ZERO; SQLSTATE: 22012" in note
    assert "server stack trace" not in note  # already in the exception's own message


def test_the_servers_stack_trace_is_added_as_a_note_when_the_message_lacks_it() -> None:
    classes = ["org.apache.spark.SparkArithmeticException", "java.lang.ArithmeticException"]
    e = server_error(DIV0_MESSAGE, classes, display=False, errorClass="DIVIDE_BY_ZERO", stackTrace=DIV0_STACK)
    assert "divideByZeroError" not in str(e)
    job_failure(e)
    (note,) = e.__notes__
    assert note.startswith("Spark Connect server detail:\n")
    assert "server stack trace:\n" + DIV0_STACK in note


def test_a_failed_task_names_its_java_cause_and_where_it_ran() -> None:
    message = (
        "Job aborted due to stage failure: Task 1 in stage 0.0 failed 4 times, most recent failure: "
        "Lost task 1.3 in stage 0.0 (TID 7) (10.0.0.5 executor 1): java.io.IOException: Cannot run program "
        '"/opt/venv/bin/python": error=2, No such file or directory'
    )
    e = server_error(message, ["org.apache.spark.SparkException", "java.lang.Exception"])
    assert type(e).__name__ == "SparkException"
    assert job_failure(e).message == (
        'the Spark job failed: java.io.IOException: Cannot run program "/opt/venv/bin/python": '
        "error=2, No such file or directory (on 10.0.0.5 executor 1)"
    )


def test_the_innermost_caused_by_of_the_servers_stack_trace() -> None:
    stack = (
        "org.apache.spark.SparkException\n\tat org.apache.spark.rdd.RDD.collect(RDD.scala:1)\n"
        "Caused by: java.lang.IllegalStateException: outer\n\tat a.b(C.java:1)\n"
        "Caused by: java.net.ConnectException: Connection refused\n\tat a.c(C.java:2)"
    )
    e = server_error(
        "Writing job failed.", ["org.apache.spark.SparkException"], display=True, stackTrace=stack
    )
    assert job_failure(e).message == "the Spark job failed: java.net.ConnectException: Connection refused"


def test_a_grpc_failure_is_its_details_not_the_calls_repr() -> None:
    e = SparkConnectGrpcException(
        message="<_MultiThreadedRendezvous of RPC that terminated with:\n"
        "\tstatus = StatusCode.UNAVAILABLE\n"
        '\tdetails = "failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:15002"\n'
        '\tdebug_error_string = "UNKNOWN:Error received from peer"\n>'
    )
    assert job_failure(e).message == (
        "the Spark job failed: failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:15002"
    )
    assert connect_detail(e) is None and not hasattr(e, "__notes__")  # nothing more to show


def test_classic_errors_are_not_connect_ones() -> None:
    e = Exception("An error occurred while calling o1.x.\nCaused by: java.net.ConnectException: refused\n")
    assert not is_connect(e) and connect_detail(e) is None
    assert job_failure(e).message == "the Spark job failed: java.net.ConnectException: refused"
    assert not hasattr(e, "__notes__")
