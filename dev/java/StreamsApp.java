import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.KStream;

/**
 * A Kafka Streams application in a streams group (KIP-1071): copies SOURCE to SINK.
 *
 * <p>Arguments: BOOTSTRAP APPLICATION_ID SOURCE SINK STATE_DIR [repartition]. With "repartition" the
 * records go through a repartition topic on their way to SINK (two subtopologies: the group then
 * reads and commits an internal topic too). Prints "RUNNING" when the client
 * runs, "PROCESSED n" after each record. A record whose value is "hold" holds its stream thread
 * (printing "HOLDING"; nothing is processed or committed meanwhile) until stdin reads a line
 * "release". Closes (committing its offsets) when stdin closes.
 */
public class StreamsApp {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, args[1]);
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        props.put(StreamsConfig.STATE_DIR_CONFIG, args[4]);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        AtomicLong processed = new AtomicLong();
        Semaphore hold = new Semaphore(0);
        StreamsBuilder builder = new StreamsBuilder();
        KStream<byte[], byte[]> input = builder.<byte[], byte[]>stream(args[2])
                .peek((k, v) -> {
                    if (v != null && "hold".equals(new String(v, StandardCharsets.UTF_8))) {
                        System.out.println("HOLDING");
                        hold.acquireUninterruptibly();
                    }
                    System.out.println("PROCESSED " + processed.incrementAndGet());
                });
        boolean repartition = args.length > 5 && args[5].equals("repartition");
        (repartition ? input.repartition() : input).to(args[3]);
        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                System.out.println("RUNNING");
            }
        });
        streams.start();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.equals("release")) {
                hold.release();
            }
        }
        hold.release(Integer.MAX_VALUE / 2); // a held thread must not keep close() waiting
        streams.close();
        System.out.println("CLOSED");
    }
}
