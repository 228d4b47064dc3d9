#!/bin/sh
# Compiles and runs the Java reader's tests with plain javac/java (JDK 17 and
# Debian's libzstd-jni-java). Run from anywhere; prints "java: N passed, N failed, N skipped".
set -e
dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$dir/../.." && pwd)
jar=${ZSTD_JNI_JAR:-/usr/share/java/zstd-jni.jar}
out="$dir/build/test-classes"
rm -rf "$out"
mkdir -p "$out"
javac -encoding UTF-8 -Xlint:all,-serial -Werror -d "$out" -cp "$jar" "$dir"/src/main/java/tilepdb/*.java "$dir"/src/test/java/tilepdb/*.java
exec java -Dtilepdb.root="$root" -cp "$out:$jar" tilepdb.ReaderTests
