package dev.eventrouter.config;

/**
 * An integration's default for Limited Data Use, which an event may override with its own {@code limited_data_use}.
 * Meta takes it as {@code data_processing_options: ["LDU"]} with a country and a state (0 lets Meta geolocate the
 * user; 1 is the US, 1000 California), TikTok as {@code limited_data_use: true}
 * (https://developers.facebook.com/docs/marketing-apis/data-processing-options).
 *
 * @param limitedDataUse whether events without their own choice are sent with Limited Data Use
 * @param country        Meta's data_processing_options_country
 * @param state          Meta's data_processing_options_state
 */
public record DataProcessing(boolean limitedDataUse, int country, int state) {

  public static final DataProcessing NONE = new DataProcessing(false, 0, 0);
}
